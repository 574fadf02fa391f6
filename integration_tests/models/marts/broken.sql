{{ config(enabled=var('include_broken')) }}
-- fails on purpose: the column does not exist
select no_such_column from {{ ref('stg_orders') }}
