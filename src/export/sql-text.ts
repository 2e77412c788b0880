/** A SQL string literal. Export statements inline paths and partition values: COPY takes no parameters. */
export function literal(value: string): string {
  return `'${value.replace(/'/g, "''")}'`;
}

export function identifier(name: string): string {
  return `"${name.replace(/"/g, '""')}"`;
}
