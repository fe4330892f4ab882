package io.schedext.config;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.schedext.SchedulerExtenderApplication;
import io.schedext.config.ExtenderProperties.Http;
import java.io.BufferedInputStream;
import java.io.EOFException;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.web.server.context.WebServerApplicationContext;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.util.unit.DataSize;

/**
 * Between SIGTERM and the server's shutdown, a call kube-scheduler sends on the connection it kept
 * open is still answered, with {@code Connection: close}, and the connection closes after it: in a
 * rolling update, such a call used to fail with EOF as the replica stopped. The drain ends once no
 * call has come for the quiet period, and at once when none came lately.
 */
class ShutdownDrainTest {

  private static final String FILTER =
      "{\"Pod\":{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u\"}},"
          + "\"NodeNames\":[]}";

  private static final Pattern CONTENT_LENGTH = Pattern.compile("(?i)content-length: *(\\d+)");

  @Test
  void aCallOnAKeptConnectionDuringTheDrainIsAnsweredAndClosesTheConnection() throws Exception {
    ConfigurableApplicationContext ctx =
        new SpringApplicationBuilder(SchedulerExtenderApplication.class)
            .run(
                "--server.port=0",
                "--extender.scheduling.warm-up-calls=0",
                "--extender.http.drain=20s",
                "--extender.http.drain-quiet=3s");
    ShutdownDrain drain = ctx.getBean(ShutdownDrain.class);
    int port = ((WebServerApplicationContext) ctx).getWebServer().getPort();
    try (Socket socket = new Socket(InetAddress.getLoopbackAddress(), port)) {
      OutputStream out = socket.getOutputStream();
      InputStream in = new BufferedInputStream(socket.getInputStream());
      String first = call(out, in);
      assertThat(first).startsWith("HTTP/1.1 200");
      assertThat(first.toLowerCase(Locale.ROOT)).doesNotContain("connection: close");

      // SIGTERM runs the context's close, as here.
      CompletableFuture<Void> closing = CompletableFuture.runAsync(ctx::close);
      await().atMost(Duration.ofSeconds(10)).until(drain::isDraining);

      String during = call(out, in);
      assertThat(during).startsWith("HTTP/1.1 200");
      assertThat(during.toLowerCase(Locale.ROOT)).contains("connection: close");
      assertThat(in.read()).as("the connection closes after the answer").isEqualTo(-1);
      closing.get(30, TimeUnit.SECONDS);
    } finally {
      ctx.close();
    }
  }

  @Test
  void theDrainEndsOnceNoCallHasComeForTheQuietPeriodAndAtTheLatestAfterItsLength() {
    AtomicLong now = new AtomicLong(1_000_000_000_000L);
    ShutdownDrain drain =
        new ShutdownDrain(
            new Http(
                DataSize.ofMegabytes(1),
                Duration.ofSeconds(2),
                Duration.ofSeconds(10),
                Duration.ofSeconds(1)),
            now::get);
    long started = now.get();
    assertThat(drain.over(started, now.get())).as("no call came lately").isTrue();

    drain.called();
    now.addAndGet(Duration.ofMillis(900).toNanos());
    assertThat(drain.over(started, now.get())).as("a call 0.9 s ago").isFalse();
    now.addAndGet(Duration.ofMillis(100).toNanos());
    assertThat(drain.over(started, now.get())).as("none for 1 s").isTrue();

    // Calls that never stop: the drain ends after its length all the same.
    for (int i = 0; i < 89; i++) {
      drain.called();
      now.addAndGet(Duration.ofMillis(100).toNanos());
      assertThat(drain.over(started, now.get())).isFalse();
    }
    drain.called();
    now.addAndGet(Duration.ofMillis(100).toNanos());
    assertThat(drain.over(started, now.get())).as("10 s after it began").isTrue();
  }

  /** Sends one filter call on the connection and reads its answer; returns its head. */
  private static String call(OutputStream out, InputStream in) throws IOException {
    out.write(
        ("POST /scheduler/filter HTTP/1.1\r\nHost: localhost\r\n"
                + "Content-Type: application/json\r\nContent-Length: "
                + FILTER.length()
                + "\r\n\r\n"
                + FILTER)
            .getBytes(StandardCharsets.US_ASCII));
    out.flush();
    String head = head(in);
    Matcher length = CONTENT_LENGTH.matcher(head);
    assertThat(length.find()).as("the answer has a length").isTrue();
    in.readNBytes(Integer.parseInt(length.group(1)));
    return head;
  }

  /** A response's status line and headers, up to the blank line. */
  private static String head(InputStream in) throws IOException {
    StringBuilder sb = new StringBuilder();
    while (!sb.toString().endsWith("\r\n\r\n")) {
      int b = in.read();
      if (b < 0) {
        throw new EOFException("the server closed the connection after: " + sb);
      }
      sb.append((char) b);
    }
    return sb.toString();
  }
}
