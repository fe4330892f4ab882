package io.schedext.bench;

import io.fabric8.kubernetes.api.model.Node;
import io.schedext.extender.WireCodec;
import io.schedext.extender.wire.ExtenderArgs;
import io.schedext.extender.wire.ExtenderFilterResult;
import io.schedext.extender.wire.HostPriorityList;
import io.schedext.extender.wire.NameArray;
import io.schedext.extender.wire.NodeNameIndex;
import io.schedext.extender.wire.ReplyBuffer;
import io.schedext.framework.NodeInfo;
import java.io.ByteArrayInputStream;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
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
 * The JSON side of a call, without HTTP or scheduling: decoding a request with thousands of {@code
 * NodeNames}, and encoding the filter and prioritize replies for as many nodes, into a {@link
 * ReplyBuffer} (as the endpoints do) and, for comparison, token by token through Jackson's
 * generator into a plain stream. Run with {@code mvn -B -Pbench test-compile exec:exec
 * -Dbench.args="jmh WireBenchmark"}.
 */
@State(Scope.Benchmark)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.MICROSECONDS)
@Warmup(iterations = 3, time = 2)
@Measurement(iterations = 5, time = 2)
@Fork(
    value = 1,
    jvmArgsAppend = {"-Xmx1g"})
public class WireBenchmark {

  @Param({"500", "5000"})
  public int nodes;

  private final WireCodec codec = new WireCodec(256L << 20);
  private byte[] namesRequest;
  private NodeNameIndex interner;
  private HostPriorityList priorities;
  private ExtenderFilterResult filterReply;
  private final ReplyBuffer buffer = new ReplyBuffer(64 * 1024);
  private final ByteArrayOutputStream plain = new ByteArrayOutputStream(256 * 1024);

  /** Builds the request body and the replies for the synthetic cluster's nodes. */
  @Setup(Level.Trial)
  public void setUp() {
    SyntheticCluster cluster = SyntheticCluster.build(nodes, 1, 42);
    List<Node> all = cluster.nodes();
    String[] names = new String[all.size()];
    long[] scores = new long[all.size()];
    Map<String, String> failed = new LinkedHashMap<>();
    for (int i = 0; i < names.length; i++) {
      NodeInfo info = NodeInfo.of(all.get(i));
      names[i] = info.name();
      scores[i] = i % 11;
      if (i % 10 == 0) {
        failed.put(names[i], "node(s) had untolerated taint {dedicated: batch}");
      }
    }
    interner = NodeNameIndex.of(names);
    byte[][] encoded = new byte[names.length][];
    for (int i = 0; i < names.length; i++) {
      encoded[i] = interner.json(i);
    }
    namesRequest =
        HttpLoadDriver.namesBody(
            SyntheticCluster.pending(SyntheticCluster.Kind.PLAIN, 0), List.of(names));
    priorities = new HostPriorityList(names, encoded, scores, names.length);
    filterReply =
        new ExtenderFilterResult(null, new NameArray(names, encoded), failed, Map.of(), "");
  }

  /** A filter/prioritize body with every node's name, decoded with the names interned. */
  @Benchmark
  public ExtenderArgs decodeNames() {
    return codec.decode(new ByteArrayInputStream(namesRequest), ExtenderArgs.class, interner);
  }

  /** The prioritize reply, into a reply buffer (raw node list). */
  @Benchmark
  public int encodePrioritize() {
    codec.encode(priorities, buffer);
    return buffer.size();
  }

  /** The prioritize reply, token by token through the generator. */
  @Benchmark
  public int encodePrioritizeGenerated() throws IOException {
    plain.reset();
    codec.mapper().writeValue(plain, priorities);
    return plain.size();
  }

  /** The filter reply (names that fit, a tenth of the nodes failed), into a reply buffer. */
  @Benchmark
  public int encodeFilter() {
    codec.encode(filterReply, buffer);
    return buffer.size();
  }

  /** The filter reply, token by token through the generator. */
  @Benchmark
  public int encodeFilterGenerated() throws IOException {
    plain.reset();
    codec.mapper().writeValue(plain, filterReply);
    return plain.size();
  }
}
