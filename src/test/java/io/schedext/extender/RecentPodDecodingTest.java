package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import io.fabric8.kubernetes.api.model.Pod;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.NodeNameIndex;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A filter or prioritize body whose pod is byte for byte the last one decoded gets that very
 * instance back ({@link io.schedext.extender.wire.RecentPod}); anything else is decoded as before,
 * with the same errors.
 */
class RecentPodDecodingTest {

  private static final Path FIXTURES = Path.of("../shared/fixtures/kube-scheduler-v1.26");

  private static final String POD =
      "{\"metadata\":{\"name\":\"p\",\"namespace\":\"default\",\"uid\":\"u\",\"resourceVersion\":\"7\"},"
          + "\"spec\":{\"containers\":[{\"name\":\"c\",\"resources\":{\"requests\":{\"cpu\":\"100m\"}}}]}}";

  private final WireCodec codec = new WireCodec(1 << 20);

  private ExtenderArgs whole(String body) {
    byte[] b = body.getBytes(StandardCharsets.UTF_8);
    return codec.decodeSchedulingArgs(new ByteArrayInputStream(b), b.length, null);
  }

  private ExtenderArgs streamed(String body) {
    return codec.decode(
        new ByteArrayInputStream(body.getBytes(StandardCharsets.UTF_8)), ExtenderArgs.class, null);
  }

  private static String names(String pod, String... names) {
    return "{\"Pod\":" + pod + ",\"NodeNames\":[\"" + String.join("\",\"", names) + "\"]}";
  }

  @Test
  void theSamePodBytesInAnotherCallAreTheSameInstance() {
    Pod first = whole(names(POD, "a", "b", "c")).pod();
    ExtenderArgs second = whole("{ \"NodeNames\": [\"a\"],\n  \"Pod\": " + POD + "}");

    assertThat(second.pod()).isSameAs(first);
    assertThat(second.nodeNames()).containsExactly("a");
    assertThat(first).isEqualTo(streamed(names(POD, "a")).pod());
  }

  @Test
  void kubeSchedulersFilterAndPrioritizeOfOneCycleShareThePod() throws IOException {
    Pod filter = whole(Files.readString(FIXTURES.resolve("filter.ncc-true.json"))).pod();
    Pod prioritize = whole(Files.readString(FIXTURES.resolve("prioritize.ncc-true.json"))).pod();

    assertThat(prioritize).isSameAs(filter);
    assertThat(filter)
        .isEqualTo(streamed(Files.readString(FIXTURES.resolve("filter.ncc-true.json"))).pod());
  }

  @Test
  void kubeScheduler134sFilterAndPrioritizeOfOneCycleShareThePodInBothModes() throws IOException {
    Path dir = Path.of("src/test/resources/fixtures/kube-scheduler-v1.34");
    for (String scenario : List.of("", ".sidecar", ".pod-level", ".spread")) {
      for (String mode : List.of(".ncc-true.json", ".ncc-false.json")) {
        String filterBody = Files.readString(dir.resolve("filter" + scenario + mode));
        Pod filter = whole(filterBody).pod();
        Pod prioritize = whole(Files.readString(dir.resolve("prioritize" + scenario + mode))).pod();

        assertThat(prioritize).as(scenario + mode).isSameAs(filter);
        assertThat(filter).as(scenario + mode).isEqualTo(streamed(filterBody).pod());
      }
    }
  }

  /** A second body after {@link #POD}, and whether its pod is the first one's instance. */
  record Case(String name, String second, boolean shared) {}

  @Test
  void onlyExactlyTheSameBytesAreShared() {
    String noNamespace = POD.replace("\"namespace\":\"default\",", "");
    List<Case> cases =
        List.of(
            new Case("the same bytes", names(POD, "x"), true),
            new Case("one byte more in a value", names(POD.replace("100m", "1000m"), "x"), false),
            new Case("another resource version", names(POD.replace("\"7\"", "\"8\""), "x"), false),
            new Case(
                "the same pod with a space more",
                names(POD.replace(",\"spec\"", ", \"spec\""), "x"),
                false),
            new Case("no pod", "{\"NodeNames\":[\"x\"]}", false),
            new Case("a null pod", "{\"Pod\":null,\"NodeNames\":[\"x\"]}", false));
    for (Case c : cases) {
      Pod first = whole(names(POD, "a")).pod();
      Pod second = whole(c.second()).pod();
      if (c.shared()) {
        assertThat(second).as(c.name()).isSameAs(first);
      } else {
        assertThat(second).as(c.name()).isNotSameAs(first);
        assertThat(second).as(c.name()).isEqualTo(streamed(c.second()).pod());
      }
    }
    // A pod without a namespace is defaulted by the verbs, a write: it is never shared.
    Pod a = whole(names(noNamespace, "a")).pod();
    assertThat(whole(names(noNamespace, "a")).pod()).isNotSameAs(a).isEqualTo(a);
  }

  @Test
  void aStreamedBodyIsAlwaysDecodedAfresh() {
    byte[] b = names(POD, "a").getBytes(StandardCharsets.UTF_8);
    Pod first = codec.decodeSchedulingArgs(new ByteArrayInputStream(b), b.length, null).pod();
    Pod unknownLength = codec.decodeSchedulingArgs(new ByteArrayInputStream(b), -1, null).pod();
    long tooLong = WireCodec.WHOLE_BODY_MAX_BYTES + 1;
    Pod longBody = codec.decodeSchedulingArgs(new ByteArrayInputStream(b), tooLong, null).pod();

    assertThat(unknownLength).isNotSameAs(first).isEqualTo(first);
    assertThat(longBody).isNotSameAs(first).isEqualTo(first);
  }

  @Test
  void podsLeftToTheMapperDecodeAsWhenStreamedAndTheBodyReadsOn() {
    List<String> pods =
        List.of(
            POD.replace("\"uid\":\"u\"", "\"uid\":\"u\",\"futureField\":{\"a\":[1,{}]}"),
            POD.replace("\"uid\":\"u\"", "\"uid\":\"u\",\"labels\":{\"a\":1,\"b\":\"x\"}"),
            POD.replace("\"containers\":[", "\"containers\":[null,"),
            POD.replace("\"100m\"", "0.1"),
            POD.replace("\"name\":\"c\"", "\"name\":\"c\",\"gpu\":{\"n\":1}"));
    for (String pod : pods) {
      ExtenderArgs asWhole = whole(names(pod, "a", "b"));
      ExtenderArgs asStream = streamed(names(pod, "a", "b"));
      assertThat(asWhole.pod()).as(pod).isEqualTo(asStream.pod());
      assertThat(asWhole.nodeNames()).as(pod).containsExactly("a", "b");
    }
  }

  private static String v134(String file) throws IOException {
    return Files.readString(Path.of("src/test/resources/fixtures/kube-scheduler-v1.34", file));
  }

  /** A body, and whether it is in the plain form decoded without the mapper's bean machinery. */
  record Plain(String name, String body, boolean plain) {}

  @Test
  void plainBodiesDecodeWithoutTheMapperToWhatItDecodes() throws IOException {
    NodeNameIndex index = NodeNameIndex.of("a", "b", "c");
    String recorded = Files.readString(FIXTURES.resolve("filter.ncc-true.json"));
    List<Plain> bodies =
        List.of(
            new Plain("kube-scheduler's", recorded, true),
            new Plain("kube-scheduler 1.34's", v134("filter.ncc-true.json"), true),
            new Plain(
                "kube-scheduler 1.34's, with a sidecar",
                v134("filter.sidecar.ncc-true.json"),
                true),
            new Plain(
                "kube-scheduler 1.34's, with pod-level resources",
                v134("filter.pod-level.ncc-true.json"),
                true),
            new Plain(
                "kube-scheduler 1.34's, with matchLabelKeys",
                v134("filter.spread.ncc-true.json"),
                true),
            new Plain(
                "kube-scheduler 1.34's, nominated", v134("filter.nominated.ncc-true.json"), true),
            new Plain("pod and names", names(POD, "c", "a", "x"), true),
            new Plain("names first", "{\"NodeNames\":[\"b\"],\"Pod\":" + POD + "}", true),
            new Plain("no pod", "{\"NodeNames\":[\"b\"]}", true),
            new Plain("no names", "{\"Pod\":" + POD + "}", true),
            new Plain("an empty object", "{}", true),
            new Plain(
                "names that are null or numbers", names(POD).replace("[\"\"]", "[null,7]"), true),
            new Plain("keys in lower case", "{\"pod\":" + POD + ",\"nodenames\":[\"a\"]}", false),
            new Plain(
                "null nodes, as Go writes them", "{\"Pod\":" + POD + ",\"Nodes\":null}", true),
            new Plain("full nodes", "{\"Pod\":" + POD + ",\"Nodes\":{\"items\":[]}}", false),
            new Plain("an unknown field", "{\"Pod\":" + POD + ",\"Other\":1}", false),
            new Plain("the pod twice", "{\"Pod\":" + POD + ",\"Pod\":" + POD + "}", false),
            new Plain("a null pod", "{\"Pod\":null,\"NodeNames\":[\"a\"]}", false),
            new Plain("a name that is an object", names(POD).replace("[\"\"]", "[{}]"), false),
            new Plain("trailing content", names(POD, "a") + " 1", false),
            new Plain(
                "a pod with a mistyped field", names(POD.replace("\"7\"", "[]"), "a"), false));
    for (Plain c : bodies) {
      byte[] b = c.body().getBytes(StandardCharsets.UTF_8);
      ExtenderArgs plain = codec.decodePlain(b, index);
      Object asWhole =
          outcome(() -> codec.decodeSchedulingArgs(new ByteArrayInputStream(b), b.length, index));
      Object asStream =
          outcome(() -> codec.decode(new ByteArrayInputStream(b), ExtenderArgs.class, index));

      assertThat(plain != null).as(c.name()).isEqualTo(c.plain());
      if (asStream instanceof ExtenderArgs streamed) {
        assertThat(asWhole).as(c.name()).isInstanceOf(ExtenderArgs.class);
        for (ExtenderArgs a :
            plain == null
                ? List.of((ExtenderArgs) asWhole)
                : List.of(plain, (ExtenderArgs) asWhole)) {
          assertThat(a.pod()).as(c.name()).isEqualTo(streamed.pod());
          assertThat(a.nodeNames()).as(c.name()).isEqualTo(streamed.nodeNames());
          assertThat(a.nodes()).as(c.name()).isEqualTo(streamed.nodes());
        }
      } else {
        assertThat(asWhole).as(c.name()).isEqualTo(asStream);
      }
    }
  }

  /** The decoded arguments, or the message of the request's error. */
  private static Object outcome(java.util.function.Supplier<ExtenderArgs> decode) {
    try {
      return decode.get();
    } catch (BadRequestException e) {
      return e.getMessage();
    }
  }

  @Test
  void badBodiesGetTheSameErrorsAsWhenStreamed() {
    List<String> bad =
        List.of(
            "",
            "null",
            names("{\"metadata\":{\"name\":\"p\"},\"spec\":{\"priority\":\"high\"}}", "a"),
            names("{\"metadata\":{\"name\":\"p\",\"labels\":{\"a\":[]}}}", "a"),
            names("{\"spec\":{\"containers\":[7]}}", "a"),
            names("{\"spec\":{\"containers\":[{\"ports\":[{\"hostPort\":1e99}]}]}}", "a"),
            names(POD.replace("\"100m\"", "[]"), "a"),
            "{\"Pod\":" + POD.replace("\"100m\"", "100m"),
            names("[1]", "a"),
            "{\"Pod\":" + POD.substring(0, POD.length() - 10),
            "{\"Pod\":" + POD + ",\"NodeNames\":[\"a\"]} trailing",
            names(POD, "a").replace("\"NodeNames\":[", "\"NodeNames\":{"));
    for (String body : bad) {
      // Kept first, so that a bad body starting with the same pod bytes is compared with it.
      whole(names(POD, "a"));
      BadRequestException asWhole =
          catchThrowableOfType(() -> whole(body), BadRequestException.class);
      BadRequestException asStream =
          catchThrowableOfType(() -> streamed(body), BadRequestException.class);
      assertThat(asWhole).as(body).isNotNull();
      assertThat(asWhole.getMessage()).as(body).isEqualTo(asStream.getMessage());
    }
  }
}
