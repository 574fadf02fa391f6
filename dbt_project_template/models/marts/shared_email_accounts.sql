-- Accounts that share their email with an older account (likely duplicates). The address
-- decides which pairs appear, but is not selected.
select
    newer.customer_id,
    older.customer_id as first_customer_id
from {{ ref('stg_customers') }} as newer
inner join {{ ref('stg_customers') }} as older
    on newer.email = older.email and newer.customer_id > older.customer_id
