package io.schedext.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.fabric8.kubernetes.api.model.WatchEvent;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import io.schedext.cluster.WatchEventSerialization;
import io.schedext.testing.RichPod;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;

/**
 * Decoding one pod watch event, as the pod informer does for every event: fabric8's serialization
 * (a JSON tree, then the tree converted into the model) against {@link WatchEventSerialization}
 * (one pass over buffered tokens). The pods: the one kube-scheduler sent in the recorded filter
 * call ({@code recorded}, with managed fields and the last-applied annotation), a running pod of
 * the synthetic cluster ({@code synthetic}), and a pod using most of the model, its containers with
 * commands, environment, probes and mounts ({@code rich}). They start with {@code kind} and {@code
 * apiVersion}, as the API server writes them; {@code kindLast} is the recorded pod with the two at
 * the end (the order no API server writes: the decoder's fallback). Run with {@code mvn -B -Pbench
 * test-compile exec:exec -Dbench.args="jmh WatchEventBenchmark"}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
public class WatchEventBenchmark {

  @Param({"recorded", "synthetic", "kindLast", "rich"})
  public String pod;

  private final KubernetesSerialization fabric8 = new KubernetesSerialization();
  private final KubernetesSerialization onePass = new WatchEventSerialization();
  private String event;

  /** Builds the event's text. */
  @Setup(Level.Trial)
  public void setUp() throws IOException {
    ObjectMapper mapper = new ObjectMapper();
    ObjectNode object;
    if (pod.equals("synthetic")) {
      // fabric8's model writes apiVersion and kind first.
      object = mapper.valueToTree(SyntheticCluster.build(1, 1, 42).pods().get(0));
    } else if (pod.equals("rich")) {
      // A pod using most of the model: containers with commands, environment, probes, mounts.
      object = mapper.valueToTree(RichPod.pod());
    } else {
      ObjectNode recorded =
          (ObjectNode)
              mapper
                  .readTree(
                      Files.readString(
                          Path.of(
                              "src/test/resources/fixtures/kube-scheduler-v1.26",
                              "filter.ncc-true.json")))
                  .get("Pod");
      if (pod.equals("recorded")) {
        // The API server's order: kind, apiVersion, then the rest.
        object = mapper.createObjectNode().put("kind", "Pod").put("apiVersion", "v1");
        object.setAll(recorded);
      } else {
        object = recorded.put("kind", "Pod").put("apiVersion", "v1");
      }
    }
    ObjectNode e = mapper.createObjectNode();
    e.put("type", "MODIFIED");
    e.set("object", object);
    event = mapper.writeValueAsString(e);
  }

  /** fabric8's own decoding. */
  @Benchmark
  public WatchEvent fabric8() {
    return fabric8.unmarshal(event, WatchEvent.class);
  }

  /** One pass over buffered tokens. */
  @Benchmark
  public WatchEvent onePass() {
    return onePass.unmarshal(event, WatchEvent.class);
  }
}
