// The web client's entry: the clients through the gateway, the top bar and the router
// (#/lobby, #/table/<id>, #/history). A table page needs the seat this browser holds there.
import { connectClients } from "./api";
import { getToken, playerId } from "./auth";
import { openHistory } from "./pages/history_page";
import { openLobby } from "./pages/lobby_page";
import { openTablePage, type TablePageHandle } from "./pages/table_page";
import { seatsAt } from "./seats_store";
import { fill, h } from "./ui/dom";
import "./styles.css";

const clients = connectClients(getToken);
const main = h("main", { id: "view" });
const who = h("span", { class: "who" });
document.body.replaceChildren(
  h("header", { class: "topbar" }, h("a", { href: "#/lobby", class: "brand" }, "kahve"),
    h("nav", { "aria-label": "Main" }, h("a", { href: "#/lobby" }, "Lobby"), h("a", { href: "#/history" }, "History")), who),
  main);

let current: { destroy(): void } | null = null;
let table: TablePageHandle | null = null;

function go(hash: string): void {
  if (location.hash === hash) route();
  else location.hash = hash;
}

function route(): void {
  current?.destroy();
  current = null;
  table = null;
  fill(who, playerId() ? `signed in as ${playerId()}` : "");
  const [, page, arg] = location.hash.split("/");
  if (page === "table" && arg) {
    const held = seatsAt(arg);
    if (held.length === 0) {
      fill(main, h("p", {}, "This browser holds no seat at that table. ", h("a", { href: "#/lobby" }, "Back to the lobby")));
      return;
    }
    table = openTablePage(main, clients, held);
    current = table;
  } else if (page === "history") {
    openHistory(main, clients);
  } else {
    current = openLobby(main, clients, go);
  }
  window.scrollTo(0, 0);
}

// For the browser tests: what the page received over its streams (assertions on hidden information).
(window as unknown as { kahve: unknown }).kahve = {
  received: () => table?.sessions.map((s) => ({ seat: s.ref.seat, updates: s.received })) ?? [],
  dropConnection: () => table?.sessions.forEach((s) => s.dropConnection()),
};

window.addEventListener("hashchange", route);
route();
