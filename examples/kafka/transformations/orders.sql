-- Orders arrive on the Kafka topic 'orders' as JSON, keyed by order id. The producer retries,
-- so an event may arrive twice. The broker: bin/sluice-kafka start (127.0.0.1:9092).
-- Exactly-once from here on: the offsets read live in this flow's checkpoint.
CREATE OR REFRESH STREAMING TABLE orders_raw
COMMENT 'Every record of the orders topic, once, with where it came from'
AS SELECT CAST(key AS STRING) AS order_key, CAST(value AS STRING) AS json, topic, partition, offset, timestamp
FROM STREAM read_kafka(bootstrapServers => '127.0.0.1:9092', subscribe => 'orders', startingOffsets => 'earliest');

-- Each order event once: a copy of (order_id, version) that arrives while the watermark (the
-- latest event time seen, less 10 minutes) has not passed it is dropped; the ids seen are kept
-- in the flow's checkpoint, so this holds across updates and crashes. An event older than the
-- watermark is dropped as late.
CREATE OR REFRESH STREAMING TABLE order_events (
  CONSTRAINT has_id EXPECT (order_id IS NOT NULL) ON VIOLATION DROP ROW
)
AS SELECT /*+ DROP_DUPLICATES_WITHIN_WATERMARK(order_id, version) */ *
FROM (
  SELECT e.* FROM (
    SELECT from_json(json, 'order_id STRING, version INT, status STRING, amount DECIMAL(10,2), customer STRING, event_time TIMESTAMP') AS e
    FROM STREAM(orders_raw))
) WATERMARK event_time DELAY OF INTERVAL 10 MINUTES;

-- The current state of each order: the highest version wins, whatever order events came in.
CREATE OR REFRESH STREAMING TABLE orders;

CREATE FLOW orders_current AS AUTO CDC INTO orders
FROM STREAM(order_events)
KEYS (order_id)
SEQUENCE BY version
STORED AS SCD TYPE 1;

-- Large orders go out: to the Kafka topic 'large_orders' (at-least-once: a consumer drops
-- repeats by key and version) and to a Delta table outside the pipeline (exactly-once).
CREATE SINK large_orders_kafka USING kafka
OPTIONS ('kafka.bootstrap.servers' = '127.0.0.1:9092', topic = 'large_orders');

CREATE SINK large_orders_delta USING delta OPTIONS (path = 'exports/large_orders');

CREATE FLOW large_to_kafka AS INSERT INTO large_orders_kafka BY NAME
SELECT order_id AS key, to_json(named_struct('order_id', order_id, 'version', version, 'amount', amount,
  'customer', customer)) AS value
FROM STREAM(order_events) WHERE amount >= 1000;

CREATE FLOW large_to_delta AS INSERT INTO large_orders_delta BY NAME
SELECT order_id, version, status, amount, customer, event_time
FROM STREAM(order_events) WHERE amount >= 1000;
