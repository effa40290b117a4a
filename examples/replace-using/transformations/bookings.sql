-- Example 1: keep the latest record for each key.
CREATE OR REFRESH STREAMING TABLE bookings_current
FLOW REPLACE USING (booking_id) SEQUENCE BY booking_update_id BY NAME
SELECT booking_id, status, total_amount, booking_update_id
FROM STREAM(samples.wanderbricks.booking_updates);

-- Example 2: key on more than one column.
CREATE OR REFRESH STREAMING TABLE bookings_by_property
FLOW REPLACE USING (property_id, booking_id) SEQUENCE BY booking_update_id BY NAME
SELECT property_id, booking_id, status, total_amount, booking_update_id
FROM STREAM(samples.wanderbricks.booking_updates);

-- Example 3: drop invalid records with an expectation. A dropped row never replaces its key.
CREATE OR REFRESH STREAMING TABLE bookings_validated (
  CONSTRAINT positive_amount EXPECT (total_amount > 0) ON VIOLATION DROP ROW
)
FLOW REPLACE USING (booking_id) SEQUENCE BY booking_update_id BY NAME
SELECT * FROM STREAM(samples.wanderbricks.booking_updates);

-- The current state of each payment, from the documents' first SQL example.
CREATE STREAMING TABLE payments_current;

CREATE FLOW payments_flow AS
INSERT INTO payments_current BY NAME
REPLACE USING (payment_id) SEQUENCE BY payment_date
SELECT payment_id, booking_id, status, payment_date
FROM STREAM(samples.wanderbricks.payments);
