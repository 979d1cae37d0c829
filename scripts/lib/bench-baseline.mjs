// bench:web's baseline (decision 024): the same figures for an earlier commit, built in a temporary git worktree
// beside this checkout, with this checkout's installed packages, and served on ports of its own. The worktree
// is removed afterwards; this checkout's files, index and branches are not touched.
import { execFileSync, spawnSync } from "node:child_process";
import {
  existsSync,
  lstatSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readlinkSync,
  rmSync,
  symlinkSync,
  unlinkSync,
} from "node:fs";
import os from "node:os";
import path from "node:path";
import { root } from "./serve.mjs";

const git = (...args) =>
  execFileSync("git", args, { cwd: root, encoding: "utf8", stdio: ["ignore", "pipe", "pipe"] }).trim();

/**
 * Which commit to compare with: BENCH_BASE (any revision; `none` for no baseline), else the commit this checkout
 * stands on when the product's code has changes not committed yet (the work being measured), else the one
 * before it (the last commit is the work being measured).
 */
export function baseRevision() {
  const asked = process.env.BENCH_BASE;
  if (asked) return asked === "none" ? null : { rev: asked, why: "BENCH_BASE" };
  const changed = git("status", "--porcelain", "--", "apps", "packages", "scripts")
    .split("\n")
    .filter((line) => line && !/(^|\/)(test|e2e|__tests__)\//.test(line.slice(3)));
  return changed.length > 0
    ? { rev: "HEAD", why: `this checkout has ${changed.length} uncommitted change(s) to the product's code` }
    : { rev: "HEAD~1", why: "no uncommitted changes: the last commit is the work measured" };
}

/**
 * `dir/node_modules` as links to this checkout's installed packages, except the workspace's own packages,
 * which link to the worktree's copies (else the baseline would build this checkout's contracts). Each
 * workspace's own node_modules (packages npm could not hoist) is linked as it is.
 */
function linkPackages(dir, links) {
  const installed = path.join(root, "node_modules");
  const target = path.join(dir, "node_modules");
  mkdirSync(target);
  const link = (to, at) => {
    symlinkSync(to, at);
    links.push(at);
  };
  for (const name of readdirSync(installed)) {
    const from = path.join(installed, name);
    if (
      name.startsWith("@") &&
      readdirSync(from).some((n) => lstatSync(path.join(from, n)).isSymbolicLink())
    ) {
      // A scope holding workspace links (`@portal`): each link made again, relative, inside the worktree.
      mkdirSync(path.join(target, name));
      for (const entry of readdirSync(from)) {
        const item = path.join(from, entry);
        link(lstatSync(item).isSymbolicLink() ? readlinkSync(item) : item, path.join(target, name, entry));
      }
    } else {
      link(from, path.join(target, name));
    }
  }
  for (const group of ["apps", "packages"]) {
    for (const workspace of readdirSync(path.join(root, group))) {
      const own = path.join(root, group, workspace, "node_modules");
      const there = path.join(dir, group, workspace);
      if (existsSync(own) && existsSync(there) && !existsSync(path.join(there, "node_modules")))
        link(own, path.join(there, "node_modules"));
    }
  }
}

/** Adds the worktree, links the packages and builds the portal and the analytics front end there. */
export function prepareBaseline({ rev, why }) {
  const sha = git("rev-parse", "--short", `${rev}^{commit}`);
  const subject = git("log", "-1", "--format=%s", sha).slice(0, 100);
  const dir = mkdtempSync(path.join(os.tmpdir(), "portal-bench-base-"));
  git("worktree", "add", "--detach", dir, sha);
  const links = [];
  // The links go first, one by one, so that nothing removing the worktree can reach this checkout's packages.
  const remove = () => {
    try {
      for (const at of links.reverse()) unlinkSync(at);
      rmSync(path.join(dir, "node_modules"), { recursive: true, force: true });
      git("worktree", "remove", "--force", dir);
    } catch (error) {
      console.error(`       could not remove the baseline worktree ${dir}: ${error.message}`);
    }
  };
  try {
    linkPackages(dir, links);
    const build = spawnSync("npm", ["run", "build"], { cwd: dir, encoding: "utf8" });
    if (build.status !== 0) throw new Error(`the baseline's build failed:\n${build.stdout}\n${build.stderr}`);
  } catch (error) {
    remove();
    throw error;
  }
  return { rev, why, sha, subject, dir, remove };
}
