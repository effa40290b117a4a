-- Historical snapshots: snapshots/ holds one full export of the customers source per day,
-- named by its date. Each update applies, in date order, every export newer than the last
-- one applied: the WITH VERSION query picks the next date, the snapshot query reads its file.
-- mode => 'FAILFAST': an export with a row that does not parse fails the flow and is not
-- applied (a missing row would delete its customer), rather than going in with NULLs.

-- SCD type 1: the customers as of the latest export; a customer missing from it is deleted.
CREATE OR REFRESH STREAMING TABLE customers
COMMENT 'Customers as of the latest snapshot';

CREATE FLOW customers_flow AS AUTO CDC INTO customers
FROM SNAPSHOT (
  SELECT * FROM read_files(concat('snapshots/', string(current_snapshot_version()), '.csv'),
    format => 'csv', header => 'true', schema => 'id INT, name STRING, city STRING', mode => 'FAILFAST'))
WITH VERSION (
  SELECT try_to_date(replace(name, '.csv', '')) AS version
  FROM list_files('snapshots')
  WHERE try_to_date(replace(name, '.csv', '')) > coalesce(last_snapshot_version(), DATE'1970-01-01')
  ORDER BY version
  LIMIT 1)
KEYS (id)
STORED AS SCD TYPE 1;

-- SCD type 2: every version of each customer, valid from the export that introduced it
-- (__START_AT) until the export that changed or dropped it (__END_AT; NULL: still current).
CREATE OR REFRESH STREAMING TABLE customers_history
COMMENT 'Every version of each customer, by snapshot date';

CREATE FLOW customers_history_flow AS AUTO CDC INTO customers_history
FROM SNAPSHOT (
  SELECT * FROM read_files(concat('snapshots/', string(current_snapshot_version()), '.csv'),
    format => 'csv', header => 'true', schema => 'id INT, name STRING, city STRING', mode => 'FAILFAST'))
WITH VERSION (
  SELECT try_to_date(replace(name, '.csv', '')) AS version
  FROM list_files('snapshots')
  WHERE try_to_date(replace(name, '.csv', '')) > coalesce(last_snapshot_version(), DATE'1970-01-01')
  ORDER BY version
  LIMIT 1)
KEYS (id)
STORED AS SCD TYPE 2;
