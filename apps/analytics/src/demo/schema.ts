/**
 * The demo advisory data lives in schema `demo`. Tables are created bare, bulk-loaded with COPY, then
 * given keys, indexes and row-level security. Client-scoped tables carry `client_id` and a policy; reference
 * tables (securities, prices, calendar, models, benchmarks) are readable by everyone.
 */
export const CLIENT_SCOPED_TABLES = [
  "households",
  "clients",
  "accounts",
  "transactions",
  "tax_lots",
  "lot_disposals",
  "positions",
  "fees",
  "tax_estimates",
] as const;

export const REFERENCE_TABLES = [
  "meta",
  "asset_classes",
  "securities",
  "trading_days",
  "prices",
  "target_allocations",
  "benchmarks",
  "benchmark_returns",
] as const;

export const CREATE_TABLES = `
drop schema if exists demo cascade;
create schema demo;
create table demo.meta (key text primary key, value text not null);
create table demo.asset_classes (asset_class text primary key, name text not null, sort_order integer not null);
create table demo.securities (
  security_id integer primary key,
  symbol text not null unique,
  name text not null,
  asset_class text not null references demo.asset_classes (asset_class),
  sleeve text not null,
  income_type text not null check (income_type in ('qualified', 'ordinary', 'tax_exempt')),
  dividend_frequency integer not null,
  distribution_yield numeric(6, 4) not null
);
create table demo.trading_days (d date not null);
create table demo.prices (security_id integer not null, price_date date not null, close numeric(14, 4) not null);
create table demo.target_allocations (
  risk_profile text not null,
  asset_class text not null references demo.asset_classes (asset_class),
  weight numeric(6, 4) not null,
  primary key (risk_profile, asset_class)
);
create table demo.benchmarks (benchmark_id text primary key, name text not null);
create table demo.benchmark_returns (benchmark_id text not null, return_date date not null, daily_return double precision not null);
create table demo.households (household_id text not null, client_id text not null, name text not null);
create table demo.clients (
  client_id text not null,
  household_id text not null,
  first_name text not null,
  last_name text not null,
  email text not null,
  risk_profile text not null,
  benchmark_id text not null,
  state text not null,
  filing_status text not null,
  inception_date date not null
);
create table demo.accounts (
  account_id text not null,
  client_id text not null,
  account_type text not null check (account_type in ('taxable', 'ira', 'roth', 'trust')),
  name text not null,
  taxable boolean not null,
  opened_date date not null
);
create table demo.transactions (
  transaction_id bigint not null,
  client_id text not null,
  account_id text not null,
  trade_date date not null,
  type text not null check (type in ('buy', 'sell', 'dividend', 'interest', 'fee', 'deposit', 'withdrawal')),
  security_id integer,
  quantity numeric(18, 4),
  price numeric(14, 4),
  amount numeric(16, 2) not null,
  income_type text check (income_type in ('qualified', 'ordinary', 'tax_exempt')),
  description text not null
);
create table demo.tax_lots (
  lot_id bigint not null,
  client_id text not null,
  account_id text not null,
  security_id integer not null,
  acquired_date date not null,
  quantity numeric(18, 4) not null,
  cost_basis numeric(16, 2) not null,
  remaining_quantity numeric(18, 4) not null,
  remaining_cost_basis numeric(16, 2) not null,
  buy_transaction_id bigint not null
);
create table demo.lot_disposals (
  disposal_id bigint not null,
  lot_id bigint not null,
  client_id text not null,
  account_id text not null,
  security_id integer not null,
  acquired_date date not null,
  sold_date date not null,
  quantity numeric(18, 4) not null,
  proceeds numeric(16, 2) not null,
  cost_basis numeric(16, 2) not null,
  gain numeric(16, 2) not null,
  term text not null check (term in ('short', 'long')),
  sell_transaction_id bigint not null
);
create table demo.positions (
  client_id text not null,
  account_id text not null,
  security_id integer not null,
  quantity numeric(18, 4) not null,
  cost_basis numeric(16, 2) not null,
  as_of date not null
);
create table demo.fees (
  fee_id bigint not null,
  client_id text not null,
  account_id text not null,
  period_start date not null,
  period_end date not null,
  billed_date date not null,
  aum numeric(16, 2) not null,
  annual_rate_bps numeric(8, 2) not null,
  amount numeric(14, 2) not null
);
create table demo.tax_estimates (
  client_id text not null,
  tax_year integer not null,
  filing_status text not null,
  federal_ordinary_rate numeric(5, 4) not null,
  federal_ltcg_rate numeric(5, 4) not null,
  state_rate numeric(6, 4) not null,
  niit_rate numeric(5, 4) not null,
  estimated_payments numeric(14, 2) not null
);
`;

export const CREATE_INDEXES = `
alter table demo.trading_days add primary key (d);
alter table demo.prices add primary key (security_id, price_date);
alter table demo.benchmark_returns add primary key (benchmark_id, return_date);
alter table demo.households add primary key (household_id);
alter table demo.clients add primary key (client_id);
alter table demo.accounts add primary key (account_id);
create index accounts_client_idx on demo.accounts (client_id);
alter table demo.transactions add primary key (transaction_id);
create index transactions_client_date_idx on demo.transactions (client_id, trade_date);
create index transactions_account_date_idx on demo.transactions (account_id, trade_date);
alter table demo.tax_lots add primary key (lot_id);
create index tax_lots_client_idx on demo.tax_lots (client_id, security_id);
alter table demo.lot_disposals add primary key (disposal_id);
create index lot_disposals_client_sold_idx on demo.lot_disposals (client_id, sold_date);
create index lot_disposals_lot_idx on demo.lot_disposals (lot_id);
alter table demo.positions add primary key (account_id, security_id);
create index positions_client_idx on demo.positions (client_id);
alter table demo.fees add primary key (fee_id);
create index fees_client_idx on demo.fees (client_id, billed_date);
alter table demo.tax_estimates add primary key (client_id, tax_year);
`;

/**
 * Row-level security: every client-scoped table shows the reader only rows of `rls.client_ids()`. The function
 * is wrapped in a scalar subquery so it runs once per query (an InitPlan), not once per row. Idempotent: applied
 * again at every boot, so a changed policy reaches an existing database.
 */
export function rowSecuritySql(readerRole: string): string {
  const role = `"${readerRole}"`;
  const policies = CLIENT_SCOPED_TABLES.map(
    (t) => `
alter table demo.${t} enable row level security;
drop policy if exists ${t}_by_client on demo.${t};
create policy ${t}_by_client on demo.${t} for select to ${role}
  using (client_id = any ((select rls.client_ids())::text[]));`,
  ).join("");
  return `
${policies}
revoke all on schema demo from public;
grant usage on schema demo to ${role};
grant select on all tables in schema demo to ${role};
`;
}

/**
 * Functions the workbooks share (created again at every boot, so changes reach an existing database). All are SECURITY INVOKER (the default) so row security applies to them as to
 * any query of the reader; a test checks that no function or view in the schema runs with its owner's rights.
 */
export const CREATE_FUNCTIONS = `
-- Market value and external flows (deposits, withdrawals) per trading day for a client (or 'all' visible
-- clients) and an account (or 'all'), derived from the transactions: positions are the running sum of
-- buys and sells valued at each day's close, cash the running sum of all cash amounts.
create or replace function demo.daily_values(p_client text, p_account text, p_start date, p_end date)
returns table (value_date date, market_value numeric, net_flow numeric)
language sql stable as $$
  with tx as (
    select t.trade_date, t.type, t.security_id, t.quantity, t.amount
    from demo.transactions t
    where (p_client = 'all' or t.client_id = p_client)
      and (p_account = 'all' or t.account_id = p_account)
      and t.trade_date <= p_end
  ),
  days as (select d from demo.trading_days where d between p_start and p_end),
  sec_changes as (
    select security_id, trade_date, sum(quantity) as dq
    from tx where type in ('buy', 'sell') group by security_id, trade_date
  ),
  opening_qty as (
    select security_id, sum(dq) as q0 from sec_changes where trade_date < p_start group by security_id
  ),
  qty as (
    select s.security_id, days.d,
           coalesce(o.q0, 0) + coalesce(sum(c.dq) over (partition by s.security_id order by days.d), 0) as q
    from (select distinct security_id from sec_changes) s
    cross join days
    left join sec_changes c on c.security_id = s.security_id and c.trade_date = days.d
    left join opening_qty o on o.security_id = s.security_id
  ),
  holdings_value as (
    select q.d, sum(q.q * p.close) as v
    from qty q join demo.prices p on p.security_id = q.security_id and p.price_date = q.d
    where q.q <> 0
    group by q.d
  ),
  cash_changes as (
    select trade_date, sum(amount) as da,
           sum(amount) filter (where type in ('deposit', 'withdrawal')) as flow
    from tx group by trade_date
  ),
  cash as (
    select days.d,
           (select coalesce(sum(da), 0) from cash_changes where trade_date < p_start)
             + coalesce(sum(cc.da) over (order by days.d), 0) as c,
           coalesce(cc.flow, 0) as flow
    from days left join cash_changes cc on cc.trade_date = days.d
  )
  select cash.d, cash.c + coalesce(hv.v, 0), cash.flow
  from cash left join holdings_value hv on hv.d = cash.d
$$;

-- Daily time-weighted return (flows at the end of the day, net of advisory fees, which are not flows):
-- r = (MV_t - F_t) / MV_(t-1) - 1, chained from the base day; and the growth of the client's blended
-- benchmark over the same days (null when the scope mixes clients with different benchmarks).
create or replace function demo.performance(p_client text, p_account text, p_base date, p_end date)
returns table (value_date date, market_value numeric, net_flow numeric, daily_return double precision,
               growth double precision, benchmark_growth double precision)
language sql stable as $$
  with v as (select * from demo.daily_values(p_client, p_account, p_base, p_end)),
  r as (
    select value_date, market_value, net_flow,
           case when lag(market_value) over w > 0
                then ((market_value - net_flow) / lag(market_value) over w - 1)::double precision
                else 0 end as daily_return
    from v window w as (order by value_date)
  ),
  bm as (
    select case when count(distinct benchmark_id) = 1 then min(benchmark_id) end as benchmark_id
    from demo.clients where p_client = 'all' or client_id = p_client
  ),
  b as (
    select br.return_date, br.daily_return
    from demo.benchmark_returns br join bm on br.benchmark_id = bm.benchmark_id
    where br.return_date > p_base and br.return_date <= p_end
  )
  select r.value_date, r.market_value, r.net_flow, r.daily_return,
         exp(sum(ln(greatest(1 + r.daily_return, 1e-9))) over (order by r.value_date)),
         case when (select benchmark_id from bm) is null then null
              else exp(sum(ln(1 + coalesce(b.daily_return, 0))) over (order by r.value_date)) end
  from r left join b on b.return_date = r.value_date
$$;

-- Time-weighted return and benchmark return month-, quarter-, year-to-date and over one year, as of p_end.
create or replace function demo.period_returns(p_client text, p_account text, p_end date)
returns table (period text, sort_order integer, start_date date, twr double precision, benchmark double precision)
language sql stable as $$
  with e as (select max(d) as end_d from demo.trading_days where d <= p_end),
  periods as (
    select 'MTD' as period, 1 as sort_order, date_trunc('month', end_d)::date as start_date from e
    union all select 'QTD', 2, date_trunc('quarter', end_d)::date from e
    union all select 'YTD', 3, date_trunc('year', end_d)::date from e
    union all select '1Y', 4, ((end_d - interval '1 year')::date + 1) from e
  ),
  bases as (
    select p.*, (select max(d) from demo.trading_days where d < p.start_date) as base from periods p
  ),
  perf as (
    select * from demo.performance(p_client, p_account, (select min(base) from bases), (select end_d from e))
  ),
  last as (select * from perf where value_date = (select end_d from e))
  select b.period, b.sort_order, b.start_date,
         (select growth from last) / pb.growth - 1,
         (select benchmark_growth from last) / pb.benchmark_growth - 1
  from bases b left join perf pb on pb.value_date = b.base
  order by b.sort_order
$$;

-- Open tax lots as of a date: each lot bought on or before it, less what was sold of it on or before it.
create or replace function demo.lots_as_of(p_client text, p_account text, p_as_of date)
returns table (lot_id bigint, client_id text, account_id text, security_id integer, acquired_date date,
               quantity numeric, cost_basis numeric)
language sql stable as $$
  select l.lot_id, l.client_id, l.account_id, l.security_id, l.acquired_date,
         l.quantity - coalesce(sum(d.quantity), 0),
         l.cost_basis - coalesce(sum(d.cost_basis), 0)
  from demo.tax_lots l
  left join demo.lot_disposals d on d.lot_id = l.lot_id and d.sold_date <= p_as_of
  where (p_client = 'all' or l.client_id = p_client)
    and (p_account = 'all' or l.account_id = p_account)
    and l.acquired_date <= p_as_of
  group by l.lot_id
  having l.quantity - coalesce(sum(d.quantity), 0) > 0
$$;

-- Closing price of each security on the last trading day on or before a date.
create or replace function demo.prices_as_of(p_as_of date)
returns table (security_id integer, price_date date, close numeric)
language sql stable as $$
  select p.security_id, p.price_date, p.close from demo.prices p
  where p.price_date = (select max(d) from demo.trading_days where d <= p_as_of)
$$;

-- Per client: the tax year's realized results and income in taxable accounts, netted as on a return
-- (short- and long-term results offset each other; a net loss deducts up to $3,000 from ordinary income),
-- with the client's marginal rates. A marginal-rate estimate, not a tax computation.
create or replace function demo.tax_estimate(p_client text, p_start date, p_end date)
returns table (client_id text, short_term numeric, long_term numeric, qualified_dividends numeric,
               ordinary_income numeric, tax_exempt_income numeric, taxable_st numeric, taxable_lt numeric,
               loss_deduction numeric, ordinary_rate numeric, ltcg_rate numeric, state_rate numeric,
               niit_rate numeric, estimated_payments numeric)
language sql stable as $$
  with scope as (
    select c.client_id from demo.clients c where p_client = 'all' or c.client_id = p_client
  ),
  g as (
    select d.client_id,
           coalesce(sum(d.gain) filter (where d.term = 'short'), 0) as st,
           coalesce(sum(d.gain) filter (where d.term = 'long'), 0) as lt
    from demo.lot_disposals d join demo.accounts a on a.account_id = d.account_id
    where a.taxable and d.sold_date between p_start and p_end
      and (p_client = 'all' or d.client_id = p_client)
    group by d.client_id
  ),
  i as (
    select t.client_id,
           coalesce(sum(t.amount) filter (where t.income_type = 'qualified'), 0) as qd,
           coalesce(sum(t.amount) filter (where t.income_type = 'ordinary'), 0) as oi,
           coalesce(sum(t.amount) filter (where t.income_type = 'tax_exempt'), 0) as te
    from demo.transactions t join demo.accounts a on a.account_id = t.account_id
    where a.taxable and t.type in ('dividend', 'interest') and t.trade_date between p_start and p_end
      and (p_client = 'all' or t.client_id = p_client)
    group by t.client_id
  ),
  b as (
    select s.client_id, coalesce(g.st, 0) as st, coalesce(g.lt, 0) as lt, coalesce(i.qd, 0) as qd,
           coalesce(i.oi, 0) as oi, coalesce(i.te, 0) as te, r.federal_ordinary_rate, r.federal_ltcg_rate,
           r.state_rate, r.niit_rate, r.estimated_payments
    from scope s
    join demo.tax_estimates r on r.client_id = s.client_id and r.tax_year = extract(year from p_start)
    left join g on g.client_id = s.client_id
    left join i on i.client_id = s.client_id
  )
  select client_id, st, lt, qd, oi, te,
         case when st + lt <= 0 or st <= 0 then 0 when lt < 0 then st + lt else st end,
         case when st + lt <= 0 or lt <= 0 then 0 when st < 0 then st + lt else lt end,
         case when st + lt < 0 then least(3000, -(st + lt)) else 0 end,
         federal_ordinary_rate, federal_ltcg_rate, state_rate, niit_rate, estimated_payments
  from b
$$;

-- Cash balance as of a date.
create or replace function demo.cash_as_of(p_client text, p_account text, p_as_of date)
returns numeric
language sql stable as $$
  select coalesce(sum(amount), 0) from demo.transactions t
  where (p_client = 'all' or t.client_id = p_client)
    and (p_account = 'all' or t.account_id = p_account)
    and t.trade_date <= p_as_of
$$;
`;
