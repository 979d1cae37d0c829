import { PencilIcon } from "lucide-react";
import { useId, useState } from "react";
import type { FormEvent, ReactNode } from "react";

import { Avatar } from "@/components/ui/avatar";
import { Button } from "@/components/ui/button";
import { cn } from "@/components/ui/cn";
import { controlClasses } from "@/components/ui/field";

import { useUpdateUserName } from "../api/update-user";

export type TProfileUser = { name: string; email: string; image?: string | null | undefined };

type TProfileCardProps = {
  user: TProfileUser | null;
  /** The Logout button, supplied by the auth feature. */
  logout: ReactNode;
};

function NameEditor({ name, onDone }: { name: string; onDone: () => void }) {
  const [draft, setDraft] = useState(name);
  const inputId = useId();
  const updateName = useUpdateUserName();

  const onSubmit = (event: FormEvent) => {
    event.preventDefault();
    const next = draft.trim();
    // A blank name is not saved (spec section 4); the editor stays open.
    if (!next) return;
    updateName.mutate(next, {
      onSuccess: onDone,
      // Spec section 8: a failed name update is only logged.
      onError: (error) => {
        console.error("Updating the profile name failed", error);
        onDone();
      },
    });
  };

  return (
    <form onSubmit={onSubmit} className="flex flex-col gap-3 sm:flex-row sm:items-end">
      <div className="flex-1 space-y-1.5">
        <label htmlFor={inputId} className="block text-sm font-medium text-navy-900">
          Name
        </label>
        <input
          id={inputId}
          value={draft}
          onChange={(event) => setDraft(event.target.value)}
          autoComplete="name"
          maxLength={100}
          // The editor opens on request (Edit), so moving focus into it is expected.
          autoFocus
          className={cn(controlClasses, "h-11 border-slate-300")}
        />
      </div>
      <div className="flex gap-2">
        <Button type="submit" isLoading={updateName.isPending}>
          Save
        </Button>
        <Button variant="secondary" onClick={onDone} disabled={updateName.isPending}>
          Cancel
        </Button>
      </div>
    </form>
  );
}

/** /profile: photo or placeholder, the name (editable), the email and Logout. */
export function ProfileCard({ user, logout }: TProfileCardProps) {
  const [editing, setEditing] = useState(false);

  if (!user) {
    return <p className="text-center text-slate-600">No user logged in.</p>;
  }

  return (
    <section
      aria-labelledby="profile-title"
      className="mx-auto max-w-2xl overflow-hidden rounded-2xl border border-slate-200 bg-white shadow-sm"
    >
      <div className="h-28 bg-gradient-to-r from-navy-900 via-navy-800 to-emerald-800" />
      <div className="px-5 pb-8 sm:px-8">
        <div className="-mt-12 flex flex-col items-start gap-4 sm:flex-row sm:items-end">
          <Avatar name={user.name} email={user.email} image={user.image} size="lg" />
          <div className="min-w-0 pb-1">
            <h1 id="profile-title" className="text-xl font-semibold text-navy-950">
              Your profile
            </h1>
            <p className="text-sm text-slate-500">How you appear to your advisory team.</p>
          </div>
        </div>

        <div className="mt-8 divide-y divide-slate-100 border-y border-slate-100">
          <div className="py-4">
            {editing ? (
              <NameEditor name={user.name} onDone={() => setEditing(false)} />
            ) : (
              <div className="flex items-center justify-between gap-4">
                <div className="min-w-0">
                  <p className="text-sm font-medium text-slate-500">Name</p>
                  <p className="mt-1 truncate text-base font-medium text-navy-950">{user.name}</p>
                </div>
                <Button variant="secondary" size="sm" onClick={() => setEditing(true)}>
                  <PencilIcon className="size-4" />
                  Edit
                  <span className="sr-only"> name</span>
                </Button>
              </div>
            )}
          </div>
          <div className="py-4">
            <p className="text-sm font-medium text-slate-500">Email</p>
            <p className="mt-1 text-sm break-words text-navy-950 sm:text-base">{user.email}</p>
          </div>
        </div>

        <div className="mt-8 flex justify-end">{logout}</div>
      </div>
    </section>
  );
}
