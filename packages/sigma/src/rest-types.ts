import { z } from "zod";

/** Shapes of the Sigma REST API v2 subset the portal uses (members, teams, workbooks, token). */

export const ZSigmaTokenResponseSchema = z.object({
  access_token: z.string().min(1),
  refresh_token: z.string().optional(),
  token_type: z.string(),
  expires_in: z.number().int().positive(),
});
export type TSigmaTokenResponse = z.infer<typeof ZSigmaTokenResponseSchema>;

export const ZSigmaErrorSchema = z.object({
  requestId: z.string(),
  message: z.string(),
  code: z.string(),
});
export type TSigmaError = z.infer<typeof ZSigmaErrorSchema>;

export function pageOf<T extends z.ZodType>(entry: T) {
  return z.object({
    entries: z.array(entry),
    hasMore: z.boolean(),
    total: z.number().int().optional(),
    nextPage: z.string().nullable(),
  });
}

export const ZSigmaMemberSchema = z.object({
  organizationId: z.string(),
  memberId: z.string(),
  memberType: z.string(),
  firstName: z.string(),
  lastName: z.string(),
  email: z.string(),
  userKind: z.string(),
  isArchived: z.boolean(),
  isInactive: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TSigmaMember = z.infer<typeof ZSigmaMemberSchema>;

export const ZSigmaCreateMemberSchema = z.object({
  email: z.email(),
  firstName: z.string().max(200).default(""),
  lastName: z.string().max(200).default(""),
  memberType: z.string().min(1).max(100),
  userKind: z.enum(["embed", "internal", "guest"]).default("embed"),
  addToTeams: z
    .array(z.object({ teamId: z.string().min(1), isTeamAdmin: z.boolean().default(false) }))
    .default([]),
});
export type TSigmaCreateMember = z.input<typeof ZSigmaCreateMemberSchema>;

export const ZSigmaUpdateMemberSchema = z
  .object({
    memberType: z.string().min(1).max(100),
    firstName: z.string().max(200),
    lastName: z.string().max(200),
    email: z.email(),
    isArchived: z.boolean(),
  })
  .partial();
export type TSigmaUpdateMember = z.infer<typeof ZSigmaUpdateMemberSchema>;

export const ZSigmaTeamSchema = z.object({
  teamId: z.string(),
  name: z.string(),
  description: z.string().nullable(),
  isArchived: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TSigmaTeam = z.infer<typeof ZSigmaTeamSchema>;

export const ZSigmaCreateTeamSchema = z.object({
  name: z.string().trim().min(1).max(200),
  description: z.string().max(2000).optional(),
  members: z.array(z.string().min(1)).optional(),
});
export type TSigmaCreateTeam = z.input<typeof ZSigmaCreateTeamSchema>;

export const ZSigmaTeamMemberSchema = z.object({
  memberId: z.string(),
  teamId: z.string(),
  isTeamAdmin: z.boolean(),
  email: z.string(),
});
export type TSigmaTeamMember = z.infer<typeof ZSigmaTeamMemberSchema>;

export const ZSigmaUpdateTeamMembersSchema = z.object({
  add: z.array(z.string().min(1)).optional(),
  remove: z.array(z.string().min(1)).optional(),
});
export type TSigmaUpdateTeamMembers = z.infer<typeof ZSigmaUpdateTeamMembersSchema>;

export const ZSigmaWorkbookSchema = z.object({
  workbookId: z.string(),
  workbookUrlId: z.string(),
  name: z.string(),
  url: z.string(),
  path: z.string(),
  latestVersion: z.number().int(),
  isArchived: z.boolean(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type TSigmaWorkbook = z.infer<typeof ZSigmaWorkbookSchema>;
