/** The charts' colours in each of the frame's themes (`:theme`), matching the page's CSS variables. */
export interface ChartColours {
  text: string;
  muted: string;
  grid: string;
  palette: string[];
}

export type TChartTheme = "light" | "dark" | "surface";
export const CHART_THEMES = ["light", "dark", "surface"] as const satisfies readonly TChartTheme[];

export const CHART_COLOURS: Record<TChartTheme, ChartColours> = {
  light: {
    text: "#1f2933",
    muted: "#52606d",
    grid: "#e4e7eb",
    palette: ["#2563eb", "#f59e0b", "#10b981", "#8b5cf6", "#ef4444", "#0ea5e9"],
  },
  surface: {
    text: "#1f2933",
    muted: "#52606d",
    grid: "#dde3ea",
    palette: ["#1d4ed8", "#d97706", "#059669", "#7c3aed", "#dc2626", "#0284c7"],
  },
  dark: {
    text: "#e6e8eb",
    muted: "#9aa5b1",
    grid: "#323f4b",
    palette: ["#60a5fa", "#fbbf24", "#34d399", "#a78bfa", "#f87171", "#38bdf8"],
  },
};
