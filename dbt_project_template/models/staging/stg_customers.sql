-- depends_on: {{ ref('raw_customers') }}
with source as (
    select * from {{ source('ecom', 'raw_customers') }}
),

renamed as (
    select
        id as customer_id,
        first_name,
        last_name,
        lower(trim(email)) as email,
        cast(signup_date as date) as signup_date,
        upper(country_code) as country_code
    from source
)

select * from renamed
