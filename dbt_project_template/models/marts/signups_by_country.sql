-- Customers per country, and how many left an email: counts only, never an address.
select
    country_code,
    count(*) as customers,
    count(distinct email) as customers_with_email
from {{ ref('stg_customers') }}
group by country_code
