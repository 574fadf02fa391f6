with orders as (
    select * from {{ ref('int_customer_orders') }}
),

payments as (
    select * from {{ ref('int_order_payments') }}
),

final as (
    select
        orders.order_id,
        orders.customer_id,
        orders.order_date,
        orders.status,
        orders.customer_order_number,
        orders.customer_order_number = 1 as is_first_order,
        coalesce(payments.credit_card_amount, 0) as credit_card_amount,
        coalesce(payments.bank_transfer_amount, 0) as bank_transfer_amount,
        coalesce(payments.coupon_amount, 0) as coupon_amount,
        coalesce(payments.gift_card_amount, 0) as gift_card_amount,
        coalesce(payments.total_amount, 0) as amount
    from orders
    left join payments on orders.order_id = payments.order_id
)

select * from final
