/** "Olivia Bennett". */
export function fullName(person: { first_name: string; last_name: string }): string {
  return `${person.first_name} ${person.last_name}`.trim();
}

/** Spec: assigned people as names joined by ", ", or 'None'. */
export function namesOrNone(people: ReadonlyArray<{ first_name: string; last_name: string }>): string {
  return people.length > 0 ? people.map(fullName).join(", ") : "None";
}
