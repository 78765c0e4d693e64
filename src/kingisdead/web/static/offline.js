// The offline page's "Try again": reloads the address that failed, with its #fragment (a seat's #token=),
// which the link's own href="" would drop.
document.querySelector("[data-testid=try-again]").addEventListener("click", (event) => {
  event.preventDefault();
  location.reload();
});
