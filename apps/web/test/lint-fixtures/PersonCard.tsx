// Named in PascalCase on purpose: file names under apps/web/src are kebab-case, React components included
// (apps/web/test/lint-rules.test.ts).
export function PersonCard({ name }: { name: string }) {
  return <p>{name}</p>;
}
