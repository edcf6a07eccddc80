// Shared by the browser test files: fail, naming it, when the machine lacks what they need (a
// skipped browser test would pass unseen in ctest),
// one stack and one browser per file, pages that report their errors, screenshots as artifacts.
import { mkdirSync } from "node:fs";
import { join } from "node:path";
import { chromium } from "playwright-core";
import { appDir, missingPrerequisite, startStack } from "../support/stack.mjs";

export const artifacts = process.env.KAHVE_WEB_ARTIFACTS ?? join(appDir, "test-artifacts");

export async function setup() {
  const missing = missingPrerequisite();
  if (missing) throw new Error(`the browser suite cannot run: ${missing}`);
  mkdirSync(artifacts, { recursive: true });
  const stack = await startStack();
  try {
    const browser = await chromium.launch({ executablePath: "/usr/bin/chromium", args: ["--no-sandbox"] });
    return { stack, browser };
  } catch (e) {
    await stack.stop();
    throw e;
  }
}

export async function teardown(env) {
  await env?.browser?.close();
  await env?.stack?.stop();
}

/** A fresh browser context (its own storage: its own player) and a page that fails the test on errors. */
export async function newPage(env, { width = 1280, height = 900 } = {}) {
  const context = await env.browser.newContext({ viewport: { width, height } });
  // ctest runs the browser files beside each other and the C++ tests: on two busy cores a page
  // load or a click can take far longer than Playwright's 30 s default.
  context.setDefaultTimeout(90000);
  const page = await context.newPage();
  page.errors = [];
  page.on("pageerror", (e) => page.errors.push(e.message));
  page.on("dialog", (d) => void d.accept());
  return page;
}

export async function screenshot(page, name) {
  await page.screenshot({ path: join(artifacts, `${name}.png`), fullPage: true });
}
