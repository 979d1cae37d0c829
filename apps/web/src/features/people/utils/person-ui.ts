import type { QueryKey, UseQueryOptions } from "@tanstack/react-query";
import type { z } from "zod";

import type { PEOPLE, TClient, TEmployee, TPersonKind } from "@portal/contracts";

import type { TOption } from "@/lib/multi-select";
import type { TListPage } from "@/lib/paging";

/** The shape of the people kinds table (`kinds.ts`): what differs between clients and employees on screen. */

/** What every list row has, whichever the kind. */
export type TPersonRow = TClient | TEmployee;

/** What is picked on Add (and on Edit Employee): a client's workbooks carry their team. */
export type TAssignedOption = TOption & { team?: string };

/** The assignment picker's search: the first page of matches for the text (there may be many). */
export type TAssignableSearch = { q: string | undefined; limit: number };

/** One page of what may be assigned, as the picker's options. */
export type TAssignableQuery = UseQueryOptions<unknown, Error, TListPage<TAssignedOption>, QueryKey>;

/**
 * What a kind is assigned, as the one assignment picker shows it (Add Client: workbooks; Add and Edit Employee:
 * clients): the field's words and the query of one page of matches, searched on the server as the admin types.
 */
export type TAssignable = {
  /** The field's label, e.g. 'Assign Clients'. */
  label: string;
  /** Singular noun of the items: 'client' → 'Select clients...', '2 client(s) selected', 'No clients match'. */
  noun: string;
  hint: string;
  loadFailed: string;
  /** Shown when there is nothing to pick and no search. */
  noneYet: string;
  query: (search: TAssignableSearch) => TAssignableQuery;
};

/** A form's schema: the fields as typed (strings) to the values sent. */
export type TFormSchema = z.ZodType<Record<string, unknown>, Record<string, string>>;

export interface TPersonUi<R extends TPersonRow = TPersonRow> {
  kind: TPersonKind;
  /** The API's paths and the kind's words (contracts `PEOPLE`). */
  words: (typeof PEOPLE)[TPersonKind];
  schemas: {
    row: z.ZodType<R>;
    addResponse: z.ZodType<{ message: string; data: { embed: { embedUrl: string | null } } }>;
  };
  idOf(row: R): number;
  businessIdOf(row: R): string;
  routes: { list: string; add: string; edit: string; import: string };
  text: {
    /** "Clients": the list's title, caption and crumb. */
    plural: string;
    /** "client", in sentences. */
    one: string;
    listDescription: string;
    searchPlaceholder: string;
    loadListFailed: string;
    /** The rest of the delete warning, after "<Name> (<ID>) loses access to the portal at once". */
    deleteConsequence: string;
    deleteFailed: string;
    addDescription: string;
    identityDescription: string;
    signInDescription: string;
    emailLabel: string;
    passwordHint: string;
    accessDescription: string;
    addFailed: string;
    /** The list's notice once Sigma has registered the new person (spec §8's words for each kind). */
    registeredNotice: string;
    editDescription: string;
    readOnlyTitle: string;
    updateFailed: string;
    notFound: string;
  };
  /** The list's column of who or what the person is assigned. */
  assigned: { header: string; cell: (row: R) => string };
  /** The picker of what the person is assigned (Add; Edit too where `editAssigned` is not null). */
  assign: TAssignable;
  forms: {
    /** Add with a password; `invite` without one ("Send an invitation", D55). */
    add: TFormSchema;
    invite: TFormSchema;
    /** The editable fields of Edit. */
    edit: TFormSchema;
  };
  /** What is picked on Add, as the add body's fields. */
  addAssigned: (picked: ReadonlyArray<TAssignedOption>) => object;
  /** Edit: the form's starting values, what it assigns (null: nothing to pick), and the body it sends. */
  editDefaults: (row: R) => Record<string, string>;
  editAssigned: (row: R) => TAssignedOption[] | null;
  editBody: (row: R, values: Record<string, unknown>, picked: ReadonlyArray<TAssignedOption>) => object;
}
