package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.NodeNameIndex;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A filter or prioritize body of declared length is read into one array of that length: read whole
 * it decodes as before; one that ends early, runs past the size limit or trickles past the deadline
 * gets the protocol's error for it.
 */
class WireCodecBodyLengthTest {

  private static final byte[] BODY =
      ("{\"Pod\":{\"metadata\":{\"name\":\"p\",\"namespace\":\"d\",\"uid\":\"u\"}},"
              + "\"Nodes\":null,\"NodeNames\":[\"a\",\"b\",\"c\"]}")
          .getBytes(StandardCharsets.UTF_8);

  private static final NodeNameIndex NAMES = NodeNameIndex.of("a", "b", "c");

  private final AtomicLong now = new AtomicLong();

  /** The body as a client sends it, four bytes per read, the clock moving {@code perRead}. */
  private InputStream sent(byte[] body, Duration perRead) {
    return new ByteArrayInputStream(body) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        now.addAndGet(perRead.toNanos());
        return super.read(b, off, Math.min(len, 4));
      }
    };
  }

  /** One body sent with a declared length to a codec with a size limit. */
  private record Case(
      String name, int bodyBytes, int declared, int limit, Duration perRead, int status) {}

  @Test
  void aBodyOfDeclaredLengthIsReadWholeOrRefusedWithItsStatus() {
    List<Case> cases =
        List.of(
            new Case("read whole", BODY.length, BODY.length, 1 << 20, Duration.ZERO, 200),
            new Case(
                "ends before its length",
                BODY.length - 10,
                BODY.length,
                1 << 20,
                Duration.ZERO,
                400),
            new Case("longer than the limit", BODY.length, BODY.length, 40, Duration.ZERO, 413),
            new Case(
                "trickled past the deadline",
                BODY.length,
                BODY.length,
                1 << 20,
                Duration.ofMillis(200),
                408));
    for (Case c : cases) {
      WireCodec codec = new WireCodec(c.limit(), Duration.ofSeconds(2), now::get);
      byte[] body = Arrays.copyOf(BODY, c.bodyBytes());
      if (c.status() == 200) {
        ExtenderArgs args =
            codec.decodeSchedulingArgs(sent(body, c.perRead()), c.declared(), NAMES);
        assertThat(args.nodeNames()).as(c.name()).containsExactly("a", "b", "c");
        assertThat(args.pod().getMetadata().getName()).as(c.name()).isEqualTo("p");
        continue;
      }
      BadRequestException e =
          catchThrowableOfType(
              BadRequestException.class,
              () -> codec.decodeSchedulingArgs(sent(body, c.perRead()), c.declared(), NAMES));
      assertThat(e).as(c.name()).isNotNull();
      assertThat(e.httpStatus()).as(c.name()).isEqualTo(c.status());
      if (c.status() == 400) {
        assertThat(e.getMessage())
            .as(c.name())
            .isEqualTo(
                "request body ended after "
                    + (BODY.length - 10)
                    + " of the "
                    + BODY.length
                    + " bytes its Content-Length declares");
      }
    }
  }
}
