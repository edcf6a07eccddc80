// Features behind a flag, from the page's query (?flags=passAndPlay): parts whose server side
// is not there yet.
const names = new URLSearchParams(location.search).get("flags")?.split(",") ?? [];

export const flags = {
  /** Pass-and-play needs practice tables with several human seats (web/app/NEEDS.md, item 10). */
  passAndPlay: names.includes("passAndPlay"),
};
