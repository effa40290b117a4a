-- Bronze: every order file that lands in data/orders, read once, as it arrives. A value that
-- does not fit its type (a word in amount) stays in _rescued_data, and the summary counts it.
CREATE OR REFRESH STREAMING TABLE orders_raw (
  CONSTRAINT parsed EXPECT (_rescued_data IS NULL)
)
COMMENT 'Orders as they landed, one row per order event'
AS SELECT *, _metadata.file_name AS source_file
FROM STREAM read_files(
  'data/orders',
  format => 'json',
  schema => 'order_id BIGINT, customer STRING, amount DECIMAL(10,2), status STRING, ordered_at TIMESTAMP'
);

-- Silver: valid orders, tidied. Invalid ones are dropped and counted in the event log.
CREATE OR REFRESH STREAMING TABLE orders_clean (
  CONSTRAINT valid_id EXPECT (order_id IS NOT NULL) ON VIOLATION DROP ROW,
  CONSTRAINT positive_amount EXPECT (amount > 0) ON VIOLATION DROP ROW,
  CONSTRAINT known_status EXPECT (status IN ('placed', 'shipped', 'cancelled'))
)
COMMENT 'Valid orders'
AS SELECT order_id, lower(trim(customer)) AS customer, amount, status, ordered_at
FROM STREAM(orders_raw);

-- Gold: revenue per customer, recomputed on every update.
CREATE OR REFRESH MATERIALIZED VIEW customer_revenue
COMMENT 'Orders and revenue per customer, cancelled orders excluded'
AS SELECT customer, count(*) AS orders, sum(amount) AS revenue
FROM orders_clean
WHERE status <> 'cancelled'
GROUP BY customer;
