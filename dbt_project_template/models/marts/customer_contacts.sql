-- Customers marketing may write to, with the address as is (renamed), hashed (to match
-- ad-platform audiences) and masked (for support screens).
select
    customer_id,
    email as contact_email,
    md5(email) as email_hash,
    {{ mask_email('email') }} as masked_email
from {{ ref('customers') }}
