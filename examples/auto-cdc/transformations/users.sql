-- The change feed: every change row that lands in data/users, read once, as it arrives.
-- Rows arrive out of order: sequenceNum, not arrival, decides which change is the latest.
-- read_files adds _rescued_data: what did not parse in a row (NULL when all of it did).
CREATE OR REFRESH STREAMING TABLE users_cdc (
  CONSTRAINT parsed EXPECT (_rescued_data IS NULL) ON VIOLATION FAIL UPDATE
)
COMMENT 'Change rows for users, as they landed'
AS SELECT * FROM STREAM read_files('data/users', format => 'json',
  schema => 'userId INT, name STRING, city STRING, operation STRING, sequenceNum INT');

-- SCD type 1: the current row of each user; a DELETE removes it.
CREATE OR REFRESH STREAMING TABLE users_scd1;

CREATE FLOW users_scd1_flow AS AUTO CDC INTO users_scd1
FROM STREAM(users_cdc)
KEYS (userId)
APPLY AS DELETE WHEN operation = "DELETE"
SEQUENCE BY sequenceNum
COLUMNS * EXCEPT (operation, sequenceNum, _rescued_data)
STORED AS SCD TYPE 1;

-- SCD type 2: every version of each user, valid from __START_AT until __END_AT
-- (NULL: the current version); a DELETE closes the current version.
CREATE OR REFRESH STREAMING TABLE users_scd2;

CREATE FLOW users_scd2_flow AS AUTO CDC INTO users_scd2
FROM STREAM(users_cdc)
KEYS (userId)
APPLY AS DELETE WHEN operation = "DELETE"
SEQUENCE BY sequenceNum
COLUMNS * EXCEPT (operation, sequenceNum, _rescued_data)
STORED AS SCD TYPE 2;

-- Downstream: a stream of an AUTO CDC target reads its Delta change data feed, one row per
-- change of users_scd1 with _change_type (insert, update_preimage, update_postimage,
-- delete), _commit_version and _commit_timestamp. Here: what happened to each user.
CREATE OR REFRESH STREAMING TABLE users_changes
COMMENT 'Changes of users_scd1, without the update pre-images'
AS SELECT userId, name, city, _change_type, _commit_version
FROM STREAM(users_scd1)
WHERE _change_type != 'update_preimage';
