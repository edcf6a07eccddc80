// The lobby: sign in (a guest token where the local stack offers one, or a pasted token), pick a
// ruleset and its settings, then practise against bots, queue alone or as a party (create or
// join with an invite code) and watch the ticket until a table is found; a table still in play
// is offered first.
import {
  Code, ConnectError, CurrentPartySchema, TicketUpdate_State, type Clients, type Party, type TicketUpdate,
} from "../api";
import { getToken, guestToken, playerId, setToken } from "../auth";
import { RULESETS, defaults, gameSettings, rulesetById, wantsTeams, type RulesetInfo } from "../rulesets";
import { heldTables, holdSeats } from "../seats_store";
import { explainError } from "../session";
import { button, fill, h } from "../ui/dom";

export interface LobbyHandle {
  destroy(): void;
}

const CHOICE_KEY = "kahve.lobby";

export function openLobby(root: HTMLElement, clients: Clients, go: (hash: string) => void): LobbyHandle {
  const abort = new AbortController();
  const saved = loadChoice();
  let info: RulesetInfo = rulesetById(saved.ruleset) ?? RULESETS[0]!;
  let values: Record<string, number | boolean> = { ...defaults(info), ...(saved.ruleset === info.id ? saved.values : {}) };
  let botKind = saved.botKind || "heuristic";
  let botDelay = saved.botDelay ?? 400;
  let humans = 2;
  let party: Party | null = null;
  let ticket: TicketUpdate | null = null;
  let message = "";

  const signInEl = h("section", { class: "card signin", "aria-label": "Sign in" });
  const pickEl = h("section", { class: "card pick", "aria-label": "Choose a game" });
  const playEl = h("section", { class: "card play", "aria-label": "Play" });
  const msgEl = h("p", { class: "lobby-msg", role: "status", "aria-live": "polite" });
  fill(root, h("div", { class: "lobby" }, signInEl, msgEl, pickEl, playEl));

  const say = (text: string) => { message = text; fill(msgEl, text); };

  const renderSignIn = async () => {
    const me = playerId();
    if (me) {
      fill(signInEl, h("p", {}, "Signed in as ", h("strong", { class: "me" }, me), " ",
        button("Sign out", () => { setToken(""); void renderSignIn(); renderPlay(); }, { class: "chip" })));
      return;
    }
    const paste = h("input", { type: "text", "aria-label": "Token", placeholder: "Paste a kahve token (JWT)", autocomplete: "off" });
    const guest = button("Play as guest", async () => {
      const t = await guestToken();
      if (t) { setToken(t); await renderSignIn(); renderPlay(); await lookForTable(); }
      else say("This server hands out no guest tokens: paste a token instead.");
    }, { class: "primary" });
    fill(signInEl, h("h2", {}, "Sign in"), h("p", {}, guest),
      h("form", { class: "inline" }, paste, h("button", { type: "submit" }, "Use this token")));
    signInEl.querySelector("form")!.addEventListener("submit", (e) => {
      e.preventDefault();
      setToken(paste.value);
      if (!playerId()) { say("That is not a readable token."); setToken(""); return; }
      void renderSignIn().then(() => { renderPlay(); void lookForTable(); });
    });
  };

  const renderPick = () => {
    const cards = RULESETS.map((r) => {
      const b = h("button", { type: "button", class: `game-card${r.id === info.id ? " is-selected" : ""}`, "aria-pressed": r.id === info.id ? "true" : "false", "data-ruleset": r.id },
        h("strong", {}, r.name), h("span", {}, r.blurb));
      b.addEventListener("click", () => { info = r; values = defaults(r); save(); renderPick(); renderPlay(); });
      return b;
    });
    const fields = info.settings.filter((s) => !s.requires || values[s.requires]).map((s) => {
      const id = `set-${s.key}`;
      if (typeof s.default === "boolean") {
        const cb = h("input", { type: "checkbox", id, checked: values[s.key] === true });
        cb.addEventListener("change", () => { values[s.key] = cb.checked; save(); renderPick(); });
        return h("label", { class: "field check", for: id }, cb, " ", s.label);
      }
      const sel = h("select", { id, "aria-label": s.label }, ...s.values.map((v) => h("option", { value: String(v), selected: v === values[s.key] }, String(v))));
      sel.addEventListener("change", () => { values[s.key] = Number(sel.value); save(); renderPick(); });
      return h("label", { class: "field", for: id }, s.label, " ", sel);
    });
    fill(pickEl, h("h2", {}, "Choose a game"), h("div", { class: "game-cards" }, ...cards),
      h("fieldset", { class: "settings" }, h("legend", {}, `${info.name} settings`), ...fields));
  };

  const renderPlay = () => {
    const signedIn = !!playerId();
    const kind = h("select", { "aria-label": "Bots" }, h("option", { value: "heuristic", selected: botKind === "heuristic" }, "Bots: strong"),
      h("option", { value: "random", selected: botKind === "random" }, "Bots: random"));
    kind.addEventListener("change", () => { botKind = kind.value; save(); });
    const speed = h("select", { "aria-label": "Bot speed" }, ...[[0, "Bots: instant"], [400, "Bots: quick"], [1200, "Bots: slow"]].map(([v, l]) =>
      h("option", { value: String(v), selected: v === botDelay }, String(l))));
    speed.addEventListener("change", () => { botDelay = Number(speed.value); save(); });
    const practice = button(`Practice ${info.name} against bots`, () => void startPractice(1), { class: "primary", disabled: !signedIn });
    const queue = button(party ? `Find a game for the party` : `Find ${/^[AEIOU]/.test(info.name) ? "an" : "a"} ${info.name} game`, () => void enqueue(), { disabled: !signedIn || !!ticket });
    const partyBox = renderParty(signedIn);
    // Pass and play: several people at this device, each at a seat of their own, bots at the rest.
    let pnp: HTMLElement | null = null;
    const most = Math.min(4, info.seats(values));
    if (most >= 2) {
      humans = Math.min(Math.max(humans, 2), most);
      const count = h("select", { "aria-label": "Players at this device" }, ...[2, 3, 4].filter((n) => n <= most).map((n) =>
        h("option", { value: String(n), selected: n === humans }, `${n} players`)));
      count.addEventListener("change", () => { humans = Number(count.value); });
      pnp = h("div", { class: "pnp" }, h("h3", {}, "Pass and play"),
        h("p", { class: "muted" }, "One device handed round: each player sees only their own hand, bots take the other seats. Unrated."),
        h("div", { class: "row" }, count, button("Start pass and play", () => void startPractice(humans), { disabled: !signedIn })));
    }
    const recent = heldTables().slice(0, 5);
    const back = recent.length ? h("details", { class: "recent" }, h("summary", {}, "Your recent tables"),
      h("ul", {}, ...recent.map((t) => h("li", {}, h("a", { href: `#/table/${t.tableId}` },
        `${rulesetById(t.ruleset)?.name ?? t.ruleset}${t.practice ? " (practice)" : ""} · ${t.tableId}`))))) : null;
    fill(playEl, h("h2", {}, "Play"), h("div", { class: "row" }, practice, kind, speed), h("div", { class: "row" }, queue),
      renderTicket(), partyBox, pnp, back);
  };

  const renderTicket = (): HTMLElement | null => {
    if (!ticket) return null;
    const st = TicketUpdate_State[ticket.state] ?? "";
    const waiting = ticket.state === TicketUpdate_State.QUEUED;
    return h("div", { class: "ticket", role: "status", "aria-label": "Your ticket" },
      h("strong", {}, waiting ? "Looking for players…" : st.toLowerCase()),
      waiting ? h("span", {}, ` ${ticket.queueSize} waiting · about ${ticket.expectedWaitSeconds}s`) : null,
      waiting ? button("Cancel", () => void cancel(), { class: "chip" }) : null);
  };

  const renderParty = (signedIn: boolean): HTMLElement => {
    if (!signedIn) return h("div");
    if (party) {
      const me = playerId();
      return h("div", { class: "party", "aria-label": "Your party" }, h("h3", {}, "Your party"),
        h("p", {}, `Members: ${party.members.join(", ")}`, party.leader === me ? " (you lead)" : ""),
        party.inviteCode ? h("p", {}, "Invite code: ", h("code", { class: "invite" }, party.inviteCode)) : null,
        button("Leave the party", () => void leaveParty(), { class: "chip" }));
    }
    const code = h("input", { type: "text", "aria-label": "Invite code", placeholder: "Invite code" });
    const join = h("form", { class: "inline" }, code, h("button", { type: "submit" }, "Join party"));
    join.addEventListener("submit", (e) => { e.preventDefault(); void joinParty(code.value.trim()); });
    return h("div", { class: "party" }, h("h3", {}, "Play with a friend"), button("Create a party", () => void createParty()), join);
  };

  const save = () => {
    localStorage.setItem(CHOICE_KEY, JSON.stringify({ ruleset: info.id, values, botKind, botDelay }));
  };

  /** A practice table; with players > 1 the caller also plays seats 1.. (pass and play). */
  const startPractice = async (players: number) => {
    say("Opening a practice table…");
    try {
      const r = await clients.table().createPracticeTable({
        settings: gameSettings(info, values), seat: 0, botKind, options: { botDelayMs: botDelay },
        requestId: `practice-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
        moreSeats: Array.from({ length: players - 1 }, (_, i) => i + 1),
      });
      const seats = r.seats.length ? r.seats : [{ seat: r.seat, seatToken: r.seatToken }];
      holdSeats(seats.map((s) => ({ tableId: r.tableId, seat: s.seat, seatToken: s.seatToken, ruleset: info.id, practice: true, matchId: "", passAndPlay: seats.length > 1 })));
      go(`#/table/${r.tableId}`);
    } catch (e) {
      say(`Could not open a practice table: ${explainError(e)}`);
    }
  };

  const enqueue = async () => {
    try {
      const r = await clients.matchmaking.enqueue({
        settings: gameSettings(info, values), teams: wantsTeams(info, values), partyId: party?.partyId ?? "",
        requestId: `q-${Date.now().toString(36)}-${Math.random().toString(36).slice(2, 8)}`,
      });
      say("Queued.");
      void watch(r.ticketId);
    } catch (e) {
      say(`Could not queue: ${explainError(e)}`);
    }
  };

  const watch = async (ticketId: string) => {
    for (let attempt = 0; attempt < 20 && !abort.signal.aborted; attempt++) {
      try {
        for await (const u of clients.matchmaking.watchTicket({ ticketId }, { signal: abort.signal })) {
          ticket = u;
          renderPlay();
          if (u.state === TicketUpdate_State.MATCHED && u.assignment) {
            const a = u.assignment;
            holdSeats([{ tableId: a.tableId, seat: a.seat, seatToken: a.seatToken, ruleset: info.id, practice: false, matchId: a.matchId, passAndPlay: false }]);
            go(`#/table/${a.tableId}`);
            return;
          }
          if (u.state === TicketUpdate_State.EXPIRED || u.state === TicketUpdate_State.CANCELLED) {
            say(`The ticket ${u.state === TicketUpdate_State.EXPIRED ? "expired" : "was cancelled"}.`);
            ticket = null;
            renderPlay();
            return;
          }
        }
        return;
      } catch (e) {
        if (abort.signal.aborted) return;
        if (ConnectError.from(e).code !== Code.Unavailable) { say(`Ticket: ${explainError(e)}`); return; }
        await new Promise((r) => setTimeout(r, 500 * (attempt + 1)));
      }
    }
  };

  const cancel = async () => {
    if (!ticket) return;
    try {
      await clients.matchmaking.cancelTicket({ ticketId: ticket.ticketId });
    } catch (e) {
      say(`Cancel: ${explainError(e)}`);
    }
  };

  const createParty = async () => {
    try {
      party = await clients.matchmaking.createParty({});
    } catch (e) {
      const current = ConnectError.from(e).findDetails(CurrentPartySchema)[0];
      if (current) party = await clients.matchmaking.getMyParty({});
      else say(`Party: ${explainError(e)}`);
    }
    renderPlay();
    if (party) void pollParty();
  };

  const joinParty = async (code: string) => {
    try {
      party = await clients.matchmaking.joinParty({ inviteCode: code });
      say("You joined the party: the leader queues for you both.");
      void lookForTable(true);
    } catch (e) {
      say(`Join: ${explainError(e)}`);
    }
    renderPlay();
  };

  const leaveParty = async () => {
    if (!party) return;
    try {
      await clients.matchmaking.leaveParty({ partyId: party.partyId });
      party = null;
    } catch (e) {
      say(`Leave: ${explainError(e)}`);
    }
    renderPlay();
  };

  /** The leader sees the partner join; both see the party end. */
  const pollParty = async () => {
    while (party && !abort.signal.aborted) {
      await new Promise((r) => setTimeout(r, 2000));
      try {
        party = await clients.matchmaking.getMyParty({});
      } catch {
        party = null;
      }
      renderPlay();
    }
  };

  /** A ticket or table in play (after a reload, or a party leader's queueing): go back to it. */
  const lookForTable = async (keepLooking = false) => {
    if (!playerId()) return;
    do {
      try {
        const t = await clients.matchmaking.getMyTicket({});
        if (t.state === TicketUpdate_State.MATCHED || t.state === TicketUpdate_State.QUEUED) {
          ticket = t;
          renderPlay();
          void watch(t.ticketId);
          return;
        }
      } catch (e) {
        if (ConnectError.from(e).code !== Code.NotFound) return;
      }
      if (keepLooking) await new Promise((r) => setTimeout(r, 1000));
    } while (keepLooking && party && !abort.signal.aborted);
  };

  void renderSignIn();
  renderPick();
  renderPlay();
  if (getToken()) {
    void lookForTable();
    void clients.matchmaking.getMyParty({}).then((p) => { party = p; renderPlay(); void pollParty(); }, () => undefined);
  }
  void message;
  return { destroy: () => abort.abort() };
}

function loadChoice(): { ruleset: string; values: Record<string, number | boolean>; botKind: string; botDelay?: number } {
  try {
    return JSON.parse(localStorage.getItem(CHOICE_KEY) ?? "") as never;
  } catch {
    return { ruleset: "", values: {}, botKind: "" };
  }
}
