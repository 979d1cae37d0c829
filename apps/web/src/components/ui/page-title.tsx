export const APP_NAME = "Meridian Client Portal";

/** Sets the document title (React 19 hoists <title> into <head>), so each screen is announced by name. */
export function PageTitle({ title }: { title: string }) {
  return <title>{`${title} · ${APP_NAME}`}</title>;
}
