package io.schedext.extender;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The streamed explanation is byte for byte what the mapper's bean serialization writes. */
class ExplanationWriterTest {

  private final WireCodec codec = new WireCodec(1 << 20);

  /** A plugin's own detail type, as DynamicResources hands explain one. */
  record Check(String claim, int usable, List<String> rejected, Map<String, Object> extra) {}

  @Test
  void everyFieldIsWrittenAsTheMapperWritesIt() throws Exception {
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("quote\"d", "line\nbreak é ✓");
    extra.put("none", null);
    Explanation.PluginStatus rejected =
        new Explanation.PluginStatus(
            "DynamicResources",
            "UnschedulableAndUnresolvable",
            List.of("cannot allocate all claims"),
            new Explanation.Detail(
                List.of("claim ns/gpu, request gpu: wants 1 device", "second line"),
                new Check("ns/gpu", 0, List.of("gpu-0", "gpu-1"), extra)));
    Explanation.PluginStatus ok = new Explanation.PluginStatus("NodeName", "Success", List.of());
    Explanation e =
        new Explanation(
            "ns/pod",
            "default-scheduler",
            null,
            "1/2 nodes are available; the highest total score is 300, on node-b.",
            List.of("NodeName", "DynamicResources"),
            List.of(new Explanation.ScorePlugin("TaintToleration", 3)),
            List.of(new Explanation.PluginStatus("DynamicResources", "Success", List.of())),
            List.of(),
            List.of(
                new Explanation.NodeVerdict(
                    "node-a", false, List.of(ok, rejected), List.of(), null, null),
                new Explanation.NodeVerdict(
                    "node-b",
                    true,
                    List.of(ok),
                    List.of(new Explanation.PluginScore("TaintToleration", -3, 100, 3, 300)),
                    300L,
                    10L)),
            List.of("node-b"),
            List.of("node-b"),
            null,
            null);
    assertSameAsMapper(e);
  }

  @Test
  void preemptionNullListsAndAnErrorAreWrittenAsTheMapperWritesThem() throws Exception {
    List<Explanation.PluginStatus> nullFilters = null;
    List<String> reasons = new ArrayList<>();
    reasons.add(null);
    Explanation e =
        new Explanation(
            "ns/pod",
            "p",
            "node-z",
            "error: boom",
            null,
            null,
            null,
            null,
            List.of(new Explanation.NodeVerdict("n", false, nullFilters, null, null, null)),
            null,
            null,
            new Explanation.Preemption(
                "Unschedulable",
                reasons,
                "node-y",
                List.of(new Explanation.Victim("ns/low", "uid-1", -5))),
            "boom");
    assertSameAsMapper(e);
    assertSameAsMapper(
        new Explanation(
            "a/b",
            "p",
            null,
            "s",
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            List.of(),
            new Explanation.Preemption("Unschedulable", List.of(), null, null),
            null));
  }

  private void assertSameAsMapper(Explanation e) throws Exception {
    String streamed = new String(codec.encode(e), StandardCharsets.UTF_8);
    assertThat(streamed).isEqualTo(codec.mapper().writeValueAsString(e));
  }
}
