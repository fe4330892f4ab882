package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.schedext.extender.wire.ExtenderBindingArgs;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

/**
 * A body trickled for longer than the body-read deadline is a 408, timed by the codec's injected
 * clock.
 */
class WireCodecDeadlineTest {

  private static final byte[] BODY =
      "{\"PodName\":\"p\",\"PodNamespace\":\"d\",\"PodUID\":\"u\",\"Node\":\"n\"}"
          .getBytes(StandardCharsets.UTF_8);

  private final AtomicLong now = new AtomicLong();
  private final WireCodec codec = new WireCodec(1 << 20, Duration.ofSeconds(2), now::get);

  /** The body four bytes per read, the clock moving {@code perRead} with each. */
  private InputStream trickled(Duration perRead) {
    return new ByteArrayInputStream(BODY) {
      @Override
      public synchronized int read(byte[] b, int off, int len) {
        now.addAndGet(perRead.toNanos());
        return super.read(b, off, Math.min(len, 4));
      }

      @Override
      public synchronized int read() {
        now.addAndGet(perRead.toNanos());
        return super.read();
      }
    };
  }

  @Test
  void aBodyTrickledPastTheDeadlineIsA408() {
    BadRequestException e =
        catchThrowableOfType(
            BadRequestException.class,
            () -> codec.decode(trickled(Duration.ofMillis(500)), ExtenderBindingArgs.class));

    assertThat(e.httpStatus()).isEqualTo(408);
    assertThat(e.getMessage())
        .startsWith("request body not received in time (extender.http.body-read-timeout PT2S");
  }

  @Test
  void aBodyReadWithinTheDeadlineIsDecoded() {
    ExtenderBindingArgs args =
        codec.decode(trickled(Duration.ofMillis(100)), ExtenderBindingArgs.class);

    assertThat(args.podName()).isEqualTo("p");
  }
}
