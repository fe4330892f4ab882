package io.schedext.testing.realcluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import com.fasterxml.jackson.dataformat.yaml.YAMLGenerator;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.utils.KubernetesSerialization;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.Predicate;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Records the request bodies a real kube-scheduler sends its extender, as test fixtures: the
 * control plane of {@link ControlPlane} with nodes n1 and n2 (zone z1) and n3 and n4 (zone z2),
 * some running pods, and one kube-scheduler with two extenders served by a {@link
 * RecordingExtender}, one {@code nodeCacheCapable: true} (with the bind verb) and one {@code
 * false}, so every scheduling cycle is recorded in both forms against the same cluster. Then, one
 * pod at a time, a plain pod, a pod with a sidecar, a pod with pod-level resources, a pod spread
 * with {@code matchLabelKeys}, and a preemptor that evicts a pod, is nominated and is bound.
 *
 * <p>Writes the chosen bodies, byte for byte, into the output directory, and the cluster as
 * kube-scheduler saw it at the preempt calls ({@code cluster.yaml}: what every body but the
 * nominated pod's is replayed against) and at the nominated pod's filter call ({@code
 * cluster.nominated.yaml}). Fails when kube-scheduler does not send what the scenario expects.
 *
 * <pre>
 * KUBEBUILDER_ASSETS=/path/to/v1.34/bin mvn -B -Precord-fixtures test-compile exec:exec
 * </pre>
 *
 * <p>Arguments (both optional): the directory of etcd, kube-apiserver and kube-scheduler (default:
 * {@code KUBEBUILDER_ASSETS}), and the output directory (default: {@code
 * src/test/resources/fixtures/kube-scheduler-v<major>.<minor>}, from {@code kube-scheduler
 * --version}).
 */
public final class FixtureRecorder {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final ObjectMapper YAML =
      new ObjectMapper(
          new YAMLFactory()
              .disable(YAMLGenerator.Feature.WRITE_DOC_START_MARKER)
              .enable(YAMLGenerator.Feature.MINIMIZE_QUOTES)
              .enable(YAMLGenerator.Feature.ALWAYS_QUOTE_NUMBERS_AS_STRINGS)
              .enable(YAMLGenerator.Feature.INDENT_ARRAYS_WITH_INDICATOR));
  private static final KubernetesSerialization SERIALIZATION = new KubernetesSerialization();
  private static final Duration WAIT = Duration.ofSeconds(60);
  private static final String NS = "default";

  private static final String PRIORITY_CLASSES =
      """
      apiVersion: scheduling.k8s.io/v1
      kind: PriorityClass
      metadata: {name: lab-low}
      value: 100
      ---
      apiVersion: scheduling.k8s.io/v1
      kind: PriorityClass
      metadata: {name: lab-mid}
      value: 200
      ---
      apiVersion: scheduling.k8s.io/v1
      kind: PriorityClass
      metadata: {name: lab-high}
      value: 1000
      """;

  /**
   * The running pods, placed by name (no scheduling). n1 and n2 have 1.5 and 1.4 cpu free, n3 3.4
   * and n4 2.9. The low-priority pods on n1 and n2 are the only ones whose eviction makes room for
   * the 3.6-cpu preemptor (lab-low below lab-mid, so n1 is chosen); the spreading pods are one of
   * revision v2 in zone z1 and two of revision v1 in zone z2.
   */
  private static final String RUNNING =
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: low1, labels: {app: lab-low}}
      spec:
        nodeName: n1
        priorityClassName: lab-low
        terminationGracePeriodSeconds: 0
        containers:
        - {name: c, image: "pause:lab", resources: {requests: {cpu: 2500m, memory: 128Mi}}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: low2, labels: {app: lab-low}}
      spec:
        nodeName: n2
        priorityClassName: lab-mid
        terminationGracePeriodSeconds: 0
        containers:
        - {name: c, image: "pause:lab", resources: {requests: {cpu: 2500m, memory: 128Mi}}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: web-v2-a, labels: {app: web, pod-template-hash: v2}}
      spec:
        nodeName: n2
        containers:
        - {name: c, image: "pause:lab", resources: {requests: {cpu: 100m, memory: 64Mi}}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: web-v1-a, labels: {app: web, pod-template-hash: v1}}
      spec:
        nodeName: n3
        containers:
        - {name: c, image: "pause:lab", resources: {requests: {cpu: 100m, memory: 64Mi}}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: web-v1-b, labels: {app: web, pod-template-hash: v1}}
      spec:
        nodeName: n4
        containers:
        - {name: c, image: "pause:lab", resources: {requests: {cpu: 100m, memory: 64Mi}}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: p3, labels: {app: lab}}
      spec:
        nodeName: n3
        priorityClassName: lab-high
        containers:
        - {name: c, image: "pause:lab", resources: {requests: {cpu: 500m, memory: 256Mi}}}
      ---
      apiVersion: v1
      kind: Pod
      metadata: {name: p4, labels: {app: lab}}
      spec:
        nodeName: n4
        priorityClassName: lab-high
        containers:
        - {name: c, image: "pause:lab", resources: {requests: {cpu: "1", memory: 256Mi}}}
      """;

  /** A pod any node takes. */
  private static final String PLAIN =
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: p1, labels: {app: lab}}
      spec:
        containers:
        - {name: c, image: "pause:lab", resources: {requests: {cpu: 500m, memory: 256Mi}}}
      """;

  /**
   * 2.5 cpu while the migration runs beside the sidecar (1 + 1.5), 2 cpu after: only n3 and n4 have
   * room. Counted as plain init containers it would be 1.5 cpu, which n1 has.
   */
  private static final String SIDECAR =
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: with-sidecar, labels: {app: lab}}
      spec:
        initContainers:
        - {name: proxy, image: "proxy:lab", restartPolicy: Always,
           resources: {requests: {cpu: "1", memory: 64Mi}}}
        - {name: migrate, image: "migrate:lab", resources: {requests: {cpu: 1500m, memory: 64Mi}}}
        containers:
        - {name: app, image: "pause:lab", resources: {requests: {cpu: "1", memory: 128Mi}}}
      """;

  /**
   * Pod-level requests of 2 cpu over containers asking 250m and nothing: only n3 and n4 have room.
   */
  private static final String POD_LEVEL =
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: pod-level, labels: {app: lab}}
      spec:
        resources:
          requests: {cpu: "2", memory: 512Mi}
          limits: {cpu: "3", memory: 1Gi}
        containers:
        - {name: a, image: "pause:lab", resources: {requests: {cpu: 250m, memory: 64Mi}}}
        - {name: b, image: "pause:lab"}
      """;

  /**
   * Revision v2 of app web, spread over zones by revision: z1 has one v2 pod and z2 none, so only
   * z2 keeps the skew within 1. Counting both revisions (ignoring matchLabelKeys) it would be z1.
   */
  private static final String SPREAD =
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: web-v2-b, labels: {app: web, pod-template-hash: v2}}
      spec:
        topologySpreadConstraints:
        - maxSkew: 1
          topologyKey: topology.kubernetes.io/zone
          whenUnsatisfiable: DoNotSchedule
          labelSelector: {matchLabels: {app: web}}
          matchLabelKeys: [pod-template-hash]
        containers:
        - {name: c, image: "pause:lab", resources: {requests: {cpu: 100m, memory: 64Mi}}}
      """;

  /** 3.6 cpu: no node has room; evicting low1 (n1) or low2 (n2) makes it. */
  private static final String PREEMPTOR =
      """
      apiVersion: v1
      kind: Pod
      metadata: {name: high, labels: {app: lab-high}}
      spec:
        priorityClassName: lab-high
        terminationGracePeriodSeconds: 0
        containers:
        - {name: c, image: "pause:lab", resources: {requests: {cpu: 3600m, memory: 128Mi}}}
      """;

  /** The cluster at the first preempt call, as a cluster file. */
  private final AtomicReference<String> atPreempt = new AtomicReference<>();

  /** The cluster at the nominated pod's first filter call, as a cluster file. */
  private final AtomicReference<String> atNominated = new AtomicReference<>();

  private FixtureRecorder() {}

  public static void main(String[] args) throws Exception {
    Assets assets =
        args.length > 0
            ? new Assets(Path.of(args[0]))
            : Assets.find().orElseThrow(() -> new IllegalStateException(Assets.whyMissing()));
    String version = version(assets);
    Path out =
        args.length > 1
            ? Path.of(args[1])
            : Path.of(
                "src/test/resources/fixtures/kube-scheduler-"
                    + version.substring(0, version.lastIndexOf('.')));
    System.out.println("recording kube-scheduler " + version + " into " + out);
    try (ControlPlane cp = ControlPlane.start(assets)) {
      new FixtureRecorder().record(cp, version, out);
    }
  }

  private void record(ControlPlane cp, String version, Path out) throws IOException {
    KubernetesClient client = cp.client();
    client.load(text(PRIORITY_CLASSES)).create();
    Nodes.createReady(client, "n1", "4", "8Gi", zone("z1"));
    Nodes.createReady(client, "n2", "4", "8Gi", zone("z1"));
    Nodes.createReady(client, "n3", "4", "8Gi", zone("z2"));
    Nodes.createReady(client, "n4", "4", "8Gi", zone("z2"));
    client.load(text(RUNNING)).inNamespace(NS).create();

    try (RecordingExtender ext =
            new RecordingExtender(client, call -> snapshotFor(client, version, call));
        KubeScheduler ks = KubeScheduler.start(cp, config(cp, ext))) {
      Map<String, RecordingExtender.Call> files = new LinkedHashMap<>();
      scenario(client, ext, PLAIN, "", 4, files, true);
      scenario(client, ext, SIDECAR, ".sidecar", 2, files, false);
      Pod podLevel = scenario(client, ext, POD_LEVEL, ".pod-level", 2, files, false);
      if (podLevel.getSpec().getResources() == null) {
        throw new IllegalStateException(
            "the API server dropped spec.resources: PodLevelResources is off");
      }
      scenario(client, ext, SPREAD, ".spread", 2, files, false);
      preemption(client, ext, files);

      Files.createDirectories(out);
      for (Map.Entry<String, RecordingExtender.Call> e : files.entrySet()) {
        Files.write(out.resolve(e.getKey()), e.getValue().body());
      }
      Files.writeString(out.resolve("cluster.yaml"), Objects.requireNonNull(atPreempt.get()));
      Files.writeString(
          out.resolve("cluster.nominated.yaml"), Objects.requireNonNull(atNominated.get()));

      System.out.println("calls, in order:");
      ext.calls().forEach(c -> System.out.println("  " + c));
      System.out.println("request headers of the first call: " + ext.calls().get(0).headers());
      System.out.println("wrote " + files.keySet() + " and cluster.yaml, cluster.nominated.yaml");
    }
  }

  /**
   * Creates one pod, waits for kube-scheduler to bind it through the extender, keeps its first
   * filter (and prioritize) call of each mode and, when {@code keepBind}, its bind call; then
   * deletes it, so the next pod meets the same cluster.
   */
  private static Pod scenario(
      KubernetesClient client,
      RecordingExtender ext,
      String yaml,
      String infix,
      int feasible,
      Map<String, RecordingExtender.Call> files,
      boolean keepBind) {
    Pod pod = client.pods().inNamespace(NS).resource(pod(yaml)).create();
    String name = pod.getMetadata().getName();
    RecordingExtender.Call bind = ext.await("bind of " + name, is("bind", true, name), WAIT);
    for (boolean ncc : new boolean[] {true, false}) {
      RecordingExtender.Call filter = ext.await("filter of " + name, is("filter", ncc, name), WAIT);
      if (filter.nodeNames().size() != feasible) {
        throw new IllegalStateException(
            name + ": expected " + feasible + " nodes in " + filter + "; " + ext.calls());
      }
      files.put("filter" + infix + mode(ncc), filter);
      if (feasible > 1) {
        files.put(
            "prioritize" + infix + mode(ncc),
            ext.await("prioritize of " + name, is("prioritize", ncc, name), WAIT));
      }
    }
    if (keepBind) {
      files.put("bind" + infix + ".json", bind);
    }
    delete(client, name);
    return pod;
  }

  /**
   * The preemptor: preempt calls of both modes (the cluster kept at the first), then, its victim
   * gone and the pod nominated, the filter calls for the nominated node alone (the cluster kept
   * again) and the bind.
   */
  private void preemption(
      KubernetesClient client, RecordingExtender ext, Map<String, RecordingExtender.Call> files) {
    String name =
        client.pods().inNamespace(NS).resource(pod(PREEMPTOR)).create().getMetadata().getName();
    for (boolean ncc : new boolean[] {true, false}) {
      RecordingExtender.Call preempt =
          ext.await("preempt of " + name, is("preempt", ncc, name), WAIT);
      JsonNode proposed = preempt.json().path(ncc ? "NodeNameToMetaVictims" : "NodeNameToVictims");
      List<String> nodes = new ArrayList<>();
      proposed.fieldNames().forEachRemaining(nodes::add);
      if (!Set.copyOf(nodes).equals(Set.of("n1", "n2"))) {
        throw new IllegalStateException("expected victims on n1 and n2: " + preempt.json());
      }
      files.put("preempt" + mode(ncc), preempt);
    }
    for (boolean ncc : new boolean[] {true, false}) {
      RecordingExtender.Call filter =
          ext.await("filter of the nominated " + name, nominated(ncc, name), WAIT);
      if (!filter.nodeNames().equals(List.of("n1"))) {
        throw new IllegalStateException("expected the nominated node n1 alone: " + filter);
      }
      files.put("filter.nominated" + mode(ncc), filter);
    }
    RecordingExtender.Call bind = ext.await("bind of " + name, is("bind", true, name), WAIT);
    if (!"n1".equals(bind.json().path("Node").asText())) {
      throw new IllegalStateException("expected the bind to n1: " + bind);
    }
    files.put("bind.nominated.json", bind);
  }

  /** Keeps the cluster as kube-scheduler saw it at the first preempt and nominated filter calls. */
  private void snapshotFor(KubernetesClient client, String version, RecordingExtender.Call call) {
    if (!call.nodeCacheCapable()) {
      return;
    }
    if ("preempt".equals(call.verb()) && atPreempt.get() == null) {
      atPreempt.set(
          cluster(
              client,
              "# The cluster kube-scheduler "
                  + version
                  + " saw when it sent the recorded preempt calls, as it also was at\n"
                  + "# every recorded call before them: each pod those calls are about was deleted"
                  + " once bound.\n"
                  + "# Written by io.schedext.testing.realcluster.FixtureRecorder.\n"));
    }
    if ("filter".equals(call.verb())
        && !call.json().path("Pod").path("status").path("nominatedNodeName").asText().isEmpty()
        && atNominated.get() == null) {
      atNominated.set(
          cluster(
              client,
              "# The cluster kube-scheduler "
                  + version
                  + " saw when it sent the recorded filter call of the nominated pod: its\n"
                  + "# victim evicted, the pod itself pending with its nominated node.\n"
                  + "# Written by io.schedext.testing.realcluster.FixtureRecorder.\n"));
    }
  }

  /**
   * The nodes, the pods placed on them and the pending pods with a nominated node, without managed
   * fields, as a cluster file of the embedded cluster.
   */
  private static String cluster(KubernetesClient client, String header) {
    List<HasMetadata> objects = new ArrayList<>();
    client.nodes().list().getItems().stream()
        .sorted(Comparator.comparing(n -> n.getMetadata().getName()))
        .forEach(objects::add);
    client.pods().inNamespace(NS).list().getItems().stream()
        .filter(
            p ->
                p.getSpec().getNodeName() != null
                    || (p.getStatus() != null && p.getStatus().getNominatedNodeName() != null))
        .sorted(Comparator.comparing(p -> p.getMetadata().getName()))
        .forEach(objects::add);
    StringBuilder b = new StringBuilder(header);
    for (HasMetadata o : objects) {
      try {
        ObjectNode tree = (ObjectNode) JSON.readTree(client.getKubernetesSerialization().asJson(o));
        ((ObjectNode) tree.get("metadata")).remove("managedFields");
        b.append("---\n").append(YAML.writeValueAsString(tree));
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return b.toString();
  }

  private static String config(ControlPlane cp, RecordingExtender ext) {
    return """
        apiVersion: kubescheduler.config.k8s.io/v1
        kind: KubeSchedulerConfiguration
        leaderElection:
          leaderElect: false
        clientConnection:
          kubeconfig: "%s"
        profiles:
        - schedulerName: default-scheduler
        extenders:
        - urlPrefix: "%s"
          filterVerb: filter
          prioritizeVerb: prioritize
          preemptVerb: preempt
          bindVerb: bind
          weight: 1
          nodeCacheCapable: true
          enableHTTPS: false
          httpTimeout: 10s
        - urlPrefix: "%s"
          filterVerb: filter
          prioritizeVerb: prioritize
          preemptVerb: preempt
          weight: 1
          nodeCacheCapable: false
          enableHTTPS: false
          httpTimeout: 10s
        """
        .formatted(cp.adminKubeconfig(), ext.urlPrefix(true), ext.urlPrefix(false));
  }

  private static Predicate<RecordingExtender.Call> is(String verb, boolean ncc, String pod) {
    return c ->
        c.verb().equals(verb)
            && (c.nodeCacheCapable() == ncc || "bind".equals(verb))
            && c.podName().equals(pod);
  }

  private static Predicate<RecordingExtender.Call> nominated(boolean ncc, String pod) {
    return is("filter", ncc, pod)
        .and(
            c -> !c.json().path("Pod").path("status").path("nominatedNodeName").asText().isEmpty());
  }

  private static void delete(KubernetesClient client, String name) {
    client.pods().inNamespace(NS).withName(name).withGracePeriod(0).delete();
    client
        .pods()
        .inNamespace(NS)
        .withName(name)
        .waitUntilCondition(Objects::isNull, WAIT.toSeconds(), TimeUnit.SECONDS);
  }

  private static String mode(boolean ncc) {
    return ncc ? ".ncc-true.json" : ".ncc-false.json";
  }

  private static Map<String, String> zone(String zone) {
    return Map.of("topology.kubernetes.io/zone", zone, "lab", "true");
  }

  private static Pod pod(String yaml) {
    return SERIALIZATION.unmarshal(yaml, Pod.class);
  }

  private static InputStream text(String yaml) {
    return new ByteArrayInputStream(yaml.getBytes(StandardCharsets.UTF_8));
  }

  /** {@code v1.34.9} from {@code kube-scheduler --version}. */
  private static String version(Assets assets) throws IOException, InterruptedException {
    Process p =
        new ProcessBuilder(assets.program("kube-scheduler").toString(), "--version")
            .redirectErrorStream(true)
            .start();
    String text = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
    p.waitFor();
    Matcher m = Pattern.compile("v\\d+\\.\\d+\\.\\d+").matcher(text);
    if (!m.find()) {
      throw new IllegalStateException("no version in: " + text);
    }
    return m.group();
  }
}
