import { sql, type SQL } from "drizzle-orm";

/**
 * The list columns every client and employee row carries about its sign-in account `userId` (a column of
 * the row): whether its changes reached the BI service (`sync_status`, `sync_error`,
 * `sync_waiting_since`, DEVIATIONS D29), whether its Sigma member is managed in Sigma (`managed_in_sigma`),
 * and whether two-step verification is set up (D32).
 */
export function accountStateColumns(userId: SQL): SQL {
  return sql`
      (select case when bool_or(p.status = 'failed') then 'failed'
                   when bool_or(p.status = 'pending') then 'pending' else 'synced' end
         from provisioning_requests p where p.user_id = ${userId}) as sync_status,
      (select p.last_error from provisioning_requests p
        where p.user_id = ${userId} and p.status <> 'done' and p.last_error is not null
        order by p.seq limit 1) as sync_error,
      (select to_char(min(p.waiting_since) at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')
         from provisioning_requests p
        where p.user_id = ${userId} and p.status = 'pending') as sync_waiting_since,
      (select u.two_factor_enabled from users u where u.id = ${userId}) as two_factor_enabled,
      coalesce((select b.user_kind <> 'embed' from users u join bi_members b on b.email = lower(u.email)
                 where u.id = ${userId}), false) as managed_in_sigma`;
}
