-- Numbers every written row, under the lock its statement took.
CREATE OR REPLACE FUNCTION "call_change_stamp"() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW."change_number" := nextval('calls_change_number_seq');
  NEW."changed_at" := now();
  RETURN NEW;
END;
$$;
