/** A source tree checked for import cycles, with the tsconfig paths its imports are resolved with. */
export interface SourceTree {
  paths: string[];
  baseDir?: string;
  aliases?: Record<string, string[]>;
}
export declare const SOURCE_TREES: SourceTree[];
/** The cycles among the modules of `tree`, each as the ring of files (relative to the repository). */
export declare function findCycles(tree: SourceTree): Promise<string[][]>;
