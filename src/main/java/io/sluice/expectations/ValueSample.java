package io.sluice.expectations;

import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.ObjectInputStream;
import java.io.ObjectOutputStream;
import java.io.Serializable;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import org.apache.spark.sql.Column;
import org.apache.spark.sql.Encoder;
import org.apache.spark.sql.Encoders;
import org.apache.spark.sql.Row;
import org.apache.spark.sql.expressions.Aggregator;
import org.apache.spark.sql.functions;
import org.apache.spark.sql.types.DataType;
import org.apache.spark.sql.types.DataTypes;
import org.apache.spark.sql.types.StructType;

/**
 * The distinct values of one column of a batch, up to a limit, and whether NULL is among them:
 * what a keyed flow bounds its reads by. Taken in the aggregation that counts the batch's
 * expectations, so it costs no Spark job of its own; each task keeps at most the limit plus one
 * values, however large the batch.
 *
 * @param values the distinct non-NULL values, or empty when there are more than the limit
 */
public record ValueSample(Optional<List<Object>> values, boolean hasNull) {
  /** How many distinct values a sample keeps before it says only "more". */
  public static final int LIMIT = 1000;

  /**
   * The aggregate that samples {@code value} over the rows for which {@code counted} holds, as a
   * binary column that {@link #of(byte[])} reads.
   */
  static Column aggregate(Column value, DataType type, Column counted) {
    StructType input = new StructType().add("counted", DataTypes.BooleanType).add("value", type);
    return functions.udaf(new Sampler(), Encoders.row(input)).apply(counted, value);
  }

  /** The sample an {@link #aggregate} computed. */
  static ValueSample of(byte[] serialized) {
    try (ObjectInputStream in = new ObjectInputStream(new ByteArrayInputStream(serialized))) {
      return ((Buffer) in.readObject()).toSample();
    } catch (IOException | ClassNotFoundException e) {
      throw new IllegalStateException("a batch's sample of values could not be read", e);
    }
  }

  /**
   * What a task keeps: up to {@link #LIMIT} + 1 distinct values (one more says "more"), and whether
   * it saw NULL. Public only because Spark's encoders take public classes.
   */
  public static final class Buffer implements Serializable {
    private final Set<Object> values = new HashSet<>();
    private boolean hasNull;

    void add(Object value) {
      if (value == null) {
        hasNull = true;
      } else if (values.size() <= LIMIT) {
        values.add(value);
      }
    }

    Buffer merge(Buffer other) {
      hasNull |= other.hasNull;
      for (Object value : other.values) {
        add(value);
      }
      return this;
    }

    ValueSample toSample() {
      return new ValueSample(values.size() > LIMIT ? Optional.empty() : Optional.of(new ArrayList<>(values)), hasNull);
    }
  }

  private static final class Sampler extends Aggregator<Row, Buffer, byte[]> {
    @Override
    public Buffer zero() {
      return new Buffer();
    }

    @Override
    public Buffer reduce(Buffer buffer, Row row) {
      if (!row.isNullAt(0) && row.getBoolean(0)) {
        buffer.add(row.get(1));
      }
      return buffer;
    }

    @Override
    public Buffer merge(Buffer left, Buffer right) {
      return left.merge(right);
    }

    @Override
    public byte[] finish(Buffer buffer) {
      ByteArrayOutputStream bytes = new ByteArrayOutputStream();
      try (ObjectOutputStream out = new ObjectOutputStream(bytes)) {
        out.writeObject(buffer);
      } catch (IOException e) {
        throw new IllegalStateException(e);
      }
      return bytes.toByteArray();
    }

    @Override
    public Encoder<Buffer> bufferEncoder() {
      return Encoders.javaSerialization(Buffer.class);
    }

    @Override
    public Encoder<byte[]> outputEncoder() {
      return Encoders.BINARY();
    }
  }
}
