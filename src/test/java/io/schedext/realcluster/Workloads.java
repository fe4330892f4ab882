package io.schedext.realcluster;

import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.PodBuilder;
import io.fabric8.kubernetes.api.model.PodCondition;
import io.fabric8.kubernetes.api.model.Quantity;
import io.fabric8.kubernetes.api.model.scheduling.v1.PriorityClassBuilder;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.schedext.testing.realcluster.ControlPlane;
import io.schedext.testing.realcluster.Nodes;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;
import java.util.stream.IntStream;
import org.springframework.test.context.DynamicPropertyRegistry;

/**
 * The objects one real-cluster test works with, kept apart from every other test's: a namespace of
 * its own, and nodes carrying a label that only its pods select, so kube-scheduler never offers one
 * test's nodes to another's pods.
 */
final class Workloads {

  /** The label every test node carries, with the test's own value. */
  static final String SCOPE = "e2e.schedext.io/test";

  /** The extender's ServiceAccount, as deployment/base/common creates it. */
  static final String EXTENDER_NAMESPACE = "scheduler-extender";

  static final String EXTENDER_ACCOUNT = "scheduler-extender";

  private static final AtomicInteger SEQUENCE = new AtomicInteger();

  private final KubernetesClient client;
  private final String id;

  private Workloads(KubernetesClient client, String id) {
    this.client = client;
    this.id = id;
  }

  /** A new scope: a namespace named after {@code what} and a sequence number. */
  static Workloads scope(KubernetesClient client, String what) {
    String id = what + "-" + SEQUENCE.incrementAndGet();
    client
        .namespaces()
        .resource(new NamespaceBuilder().withNewMetadata().withName(id).endMetadata().build())
        .create();
    return new Workloads(client, id);
  }

  /**
   * Points the service under test at {@code cp} as the deployment runs it: {@code
   * extender.cluster.source=kubernetes} with the token of the ServiceAccount {@link
   * #installExtenderIdentity} creates.
   */
  static void watchAsDeployed(ControlPlane cp, DynamicPropertyRegistry registry) {
    watchAsDeployed(cp, registry, cp.url());
  }

  /** The same, reaching the API server at {@code server} (a proxy in front of it). */
  static void watchAsDeployed(ControlPlane cp, DynamicPropertyRegistry registry, String server) {
    installExtenderIdentity(cp);
    Path kubeconfig = cp.serviceAccountKubeconfig(EXTENDER_NAMESPACE, EXTENDER_ACCOUNT, server);
    registry.add("extender.cluster.source", () -> "kubernetes");
    registry.add("extender.cluster.kubeconfig", kubeconfig::toString);
  }

  /**
   * Applies deployment/base/common (namespace, the extender's ServiceAccount and RBAC, its
   * disruption budget) and returns a kubeconfig holding a real token of that ServiceAccount.
   */
  static Path installExtenderIdentity(ControlPlane cp) {
    for (String file :
        List.of("namespace.yaml", "extender-rbac.yaml", "pod-disruption-budget.yaml")) {
      try (InputStream in = Files.newInputStream(Path.of("deployment/base/common", file))) {
        for (HasMetadata o : cp.client().load(in).items()) {
          cp.client().resource(o).serverSideApply();
        }
      } catch (IOException e) {
        throw new UncheckedIOException(e);
      }
    }
    return cp.serviceAccountKubeconfig(EXTENDER_NAMESPACE, EXTENDER_ACCOUNT);
  }

  /** The scope's name (its namespace, and its nodes' label value). */
  String id() {
    return id;
  }

  /** A schedulable node of this scope; its name is prefixed with the scope's. */
  String node(String name, String cpu) {
    String full = id + "-" + name;
    Nodes.createReady(client, full, cpu, "16Gi", Map.of(SCOPE, id));
    return full;
  }

  /**
   * {@code count} schedulable nodes of {@code cpu} each, named {@code <prefix>-0001} and on (then
   * prefixed with the scope's name), created a few at a time; returns their full names in order.
   */
  List<String> nodes(String prefix, int count, String cpu) {
    List<String> names =
        IntStream.rangeClosed(1, count)
            .mapToObj(i -> String.format(Locale.ROOT, "%s-%04d", prefix, i))
            .toList();
    return inParallel(names, n -> node(n, cpu));
  }

  /** Creates every pod of {@code pods}, a few at a time. */
  void createAll(List<PodBuilder> pods) {
    inParallel(pods, this::create);
  }

  /** Deletes the pods named {@code names} at once (their grace period is 0), a few at a time. */
  void deleteAll(List<String> names) {
    inParallel(names, n -> client.pods().inNamespace(id).withName(n).delete());
  }

  /**
   * Deletes every pod and node of the scope (the namespace stays: it would never finish deleting),
   * so that the cluster the next tests watch stays small.
   */
  void clear() {
    client.pods().inNamespace(id).delete();
    client.nodes().withLabel(SCOPE, id).delete();
  }

  /** {@code work} applied to every item, 8 at a time; the results in the items' order. */
  private static <T, R> List<R> inParallel(List<T> items, Function<T, R> work) {
    ExecutorService pool = Executors.newFixedThreadPool(8);
    try {
      List<Future<R>> all = items.stream().map(i -> pool.submit(() -> work.apply(i))).toList();
      List<R> out = new ArrayList<>();
      for (Future<R> f : all) {
        out.add(f.get());
      }
      return out;
    } catch (ExecutionException e) {
      throw new IllegalStateException(e.getCause());
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException(e);
    } finally {
      pool.shutdownNow();
    }
  }

  /** A pending pod of this scope requesting {@code cpu}; not created yet. */
  PodBuilder pod(String name, String cpu) {
    return new PodBuilder()
        .withNewMetadata()
        .withName(name)
        .withNamespace(id)
        .endMetadata()
        .withNewSpec()
        .withNodeSelector(Map.of(SCOPE, id))
        .withTerminationGracePeriodSeconds(0L)
        .addNewContainer()
        .withName("c")
        .withImage("registry.k8s.io/pause:3.9")
        .withNewResources()
        .withRequests(Map.of("cpu", new Quantity(cpu)))
        .endResources()
        .endContainer()
        .endSpec();
  }

  /** Creates {@code pod}. */
  Pod create(PodBuilder pod) {
    return client.pods().inNamespace(id).resource(pod.build()).create();
  }

  /** Creates the cluster-wide PriorityClass {@code name} of {@code value}. */
  void priorityClass(String name, int value) {
    client
        .scheduling()
        .v1()
        .priorityClasses()
        .resource(
            new PriorityClassBuilder()
                .withNewMetadata()
                .withName(name)
                .endMetadata()
                .withValue(value)
                .build())
        .create();
  }

  /** The pod as the API server has it now (null when gone). */
  Pod get(String name) {
    return client.pods().inNamespace(id).withName(name).get();
  }

  /** Every pod of the scope. */
  List<Pod> pods() {
    return client.pods().inNamespace(id).list().getItems();
  }

  /** The node the pod is bound to, or null. */
  String nodeOf(String name) {
    Pod p = get(name);
    return p == null ? null : p.getSpec().getNodeName();
  }

  /** The pod's PodScheduled condition, when kube-scheduler has written one. */
  static Optional<PodCondition> scheduledCondition(Pod p) {
    return p.getStatus() == null || p.getStatus().getConditions() == null
        ? Optional.empty()
        : p.getStatus().getConditions().stream()
            .filter(c -> "PodScheduled".equals(c.getType()))
            .findFirst();
  }
}
