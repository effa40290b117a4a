-- The documents' opening example: click and conversion events per region, sequenced by seq.
-- data/events holds the first snapshot (regions 1 and 2, seq 1) and the update (regions 1 and 3).
CREATE OR REFRESH STREAMING TABLE region_events
FLOW REPLACE USING (region_id) SEQUENCE BY seq BY NAME
SELECT region_id, device_type, event_type, seq
FROM STREAM read_files('data/events', format => 'json',
  schema => 'region_id INT, device_type STRING, event_type STRING, seq INT');
