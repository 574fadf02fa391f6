{{ config(enabled=var('include_broken')) }}
select * from {{ ref('broken') }}
