// The API reference page: Swagger UI (served from the swagger-ui-bundle package) on this server's schema.
window.ui = SwaggerUIBundle({ url: "/openapi.json", dom_id: "#swagger-ui", deepLinking: true });
