import type { Plugin } from "vite";

/** Writes `.br` and `.gz` copies beside every text file of a Vite build over 1 KB. */
export function precompress(): Plugin;
