// What an edition brings to the table: the drawing of its board and the faces of its cards.
//
// Both are data under /static/editions/<name>/ (board.json, cards.json), so that another edition
// adds its map and its cards without touching the drawing code (board.js, cards.js).
import { request } from "/static/common.js";

const loaded = new Map();

// {name, board, cards} for GET /api/meta's `edition`; fetched once per page.
export function loadEdition(name) {
  if (!loaded.has(name)) {
    const get = async (file) => {
      const response = await request(`/static/editions/${name}/${file}`);
      if (!response.ok) throw new Error(`edition ${name}: ${file} answered ${response.status}`);
      return response.json();
    };
    loaded.set(name, Promise.all([get("board.json"), get("cards.json")]).then(([board, cards]) => ({ name, board, cards })));
  }
  return loaded.get(name);
}
