import { cn } from "./cn";

function initials(name: string | null | undefined, email: string | null | undefined): string {
  const source = name?.trim() || email?.split("@")[0] || "";
  const parts = source.split(/[\s._-]+/).filter(Boolean);
  const letters = parts.length > 1 ? `${parts[0]?.[0] ?? ""}${parts.at(-1)?.[0] ?? ""}` : source.slice(0, 2);
  return letters.toUpperCase() || "?";
}

type TAvatarProps = {
  name?: string | null | undefined;
  email?: string | null | undefined;
  image?: string | null | undefined;
  size?: "sm" | "lg";
  className?: string;
};

/** The user's photo, or their initials on a navy disc. Decorative: the name is always shown or labelled nearby. */
export function Avatar({ name, email, image, size = "sm", className }: TAvatarProps) {
  const sizeClasses = size === "lg" ? "size-24 text-2xl" : "size-10 text-sm";
  if (image) {
    return (
      <img
        src={image}
        alt=""
        referrerPolicy="no-referrer"
        className={cn("shrink-0 rounded-full object-cover ring-2 ring-white", sizeClasses, className)}
      />
    );
  }
  return (
    <span
      aria-hidden="true"
      className={cn(
        "flex shrink-0 items-center justify-center rounded-full bg-navy-800 font-semibold text-white ring-2 ring-white",
        sizeClasses,
        className,
      )}
    >
      {initials(name, email)}
    </span>
  );
}
