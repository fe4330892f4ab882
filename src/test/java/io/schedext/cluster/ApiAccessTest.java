package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.fabric8.mockwebserver.http.MockResponse;
import io.fabric8.mockwebserver.http.RecordedRequest;
import io.schedext.cache.SchedulerCache;
import io.schedext.framework.FrameworkException;
import io.schedext.framework.PodInfo;
import io.schedext.testing.MakeNode;
import io.schedext.testing.MakePod;
import java.net.URI;
import java.time.Clock;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.ConcurrentHashMap;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ApiAccess} describes what the kubernetes source really asks of the API server: every
 * request the source sends while it starts, syncs, compares, looks a pod up and binds one, turned
 * into RBAC terms, is declared, and every declared grant but volume binding's updates and dynamic
 * resources' claim writes (not exercised here; {@link KubernetesClaimWriterTest} sends those) is
 * used.
 */
class ApiAccessTest {

  /** The CRUD API, remembering every request as an RBAC {@code group/resource:verb} triple. */
  static final class RecordingApi extends KubernetesCrudDispatcher {
    final Set<String> seen = ConcurrentHashMap.newKeySet();
    volatile boolean recording;

    RecordingApi() {
      super(List.of());
    }

    @Override
    public MockResponse dispatch(RecordedRequest request) {
      if (recording) {
        seen.add(rbacTriple(request.getMethod(), request.getPath()));
      }
      return super.dispatch(request);
    }
  }

  private RecordingApi api;
  private KubernetesMockServer server;
  private KubernetesCluster source;

  @BeforeEach
  void start() {
    api = new RecordingApi();
    server =
        new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), api, false);
    server.init(java.net.InetAddress.getLoopbackAddress(), 0);
  }

  @AfterEach
  void stop() {
    if (source != null) {
      source.close();
    }
    server.destroy();
  }

  @Test
  void everyRequestTheSourceSendsIsDeclaredAndEveryDeclaredGrantIsUsed() {
    Pod pending;
    try (KubernetesClient seed = server.createClient()) {
      seed.nodes()
          .resource(MakeNode.node().name("n1").capacity(Map.of("cpu", "4", "pods", "110")).obj())
          .create();
      Pod p = MakePod.pod().name("pending").namespace("default").obj();
      p.getMetadata().setUid(null);
      pending = seed.pods().inNamespace("default").resource(p).create();
    }
    api.recording = true;
    source =
        new KubernetesCluster(
            server.createClient(),
            new SchedulerCache(Clock.systemUTC(), Duration.ZERO),
            new ObjectStore(),
            Clock.systemUTC(),
            Duration.ofSeconds(30),
            Duration.ofSeconds(5));
    source.start();
    await().atMost(Duration.ofSeconds(20)).until(source::isReady);
    source.compare();
    source.findPod("default", "not-watched-yet", "uid-unknown");
    try {
      source.binder().bind(PodInfo.of(pending), "n1");
    } catch (FrameworkException e) {
      // The CRUD mock has no binding subresource; the request is what this test is after.
    }
    Set<String> declared = ApiAccess.triples();
    Set<String> notExercisedHere =
        Set.of(
            "core/persistentvolumes:update",
            "core/persistentvolumeclaims:update",
            "resource.k8s.io/resourceclaims:get",
            "resource.k8s.io/resourceclaims:update",
            "resource.k8s.io/resourceclaims/status:update",
            "resource.k8s.io/resourceclaims/status:patch");
    Set<String> publicReads = new TreeSet<>();
    ApiAccess.PUBLIC_READS.forEach(url -> publicReads.add(rbacTriple("GET", url)));
    // The probe asks every second.
    await().atMost(Duration.ofSeconds(10)).until(() -> api.seen.containsAll(publicReads));
    api.seen.removeAll(publicReads);
    assertThat(new TreeSet<>(api.seen)).as("requests the source sent").isSubsetOf(declared);
    Set<String> unused = new TreeSet<>(declared);
    unused.removeAll(api.seen);
    assertThat(unused)
        .as("declared grants the source never used")
        .isEqualTo(new TreeSet<>(notExercisedHere));
  }

  @Test
  void requestsAreNamedAsRbacNamesThem() {
    assertThat(rbacTriple("GET", "/api/v1/nodes?resourceVersion=0")).isEqualTo("core/nodes:list");
    assertThat(rbacTriple("GET", "/api/v1/pods?watch=true&resourceVersion=7"))
        .isEqualTo("core/pods:watch");
    assertThat(rbacTriple("GET", "/api/v1/namespaces")).isEqualTo("core/namespaces:list");
    assertThat(rbacTriple("GET", "/api/v1/namespaces/default/pods/p")).isEqualTo("core/pods:get");
    assertThat(rbacTriple("POST", "/api/v1/namespaces/default/pods/p/binding"))
        .isEqualTo("core/pods/binding:create");
    assertThat(rbacTriple("PUT", "/api/v1/persistentvolumes/pv1"))
        .isEqualTo("core/persistentvolumes:update");
    assertThat(rbacTriple("GET", "/apis/storage.k8s.io/v1/csistoragecapacities?watch=1"))
        .isEqualTo("storage.k8s.io/csistoragecapacities:watch");
    assertThat(rbacTriple("GET", "/apis/apps/v1/namespaces/ns/replicasets"))
        .isEqualTo("apps/replicasets:list");
    assertThat(rbacTriple("GET", "/version")).isEqualTo("nonResourceURL/version:get");
  }

  /**
   * Names one API request in RBAC terms: {@code group/resource[/subresource]:verb}, core group as
   * "core"; a non-resource URL as {@code nonResourceURL/path:verb}.
   */
  static String rbacTriple(String method, String pathAndQuery) {
    URI uri = URI.create(pathAndQuery);
    String query = uri.getRawQuery() == null ? "" : uri.getRawQuery();
    List<String> seg = List.of(uri.getPath().replaceAll("^/+", "").split("/"));
    if (!seg.get(0).equals("api") && !seg.get(0).equals("apis")) {
      return "nonResourceURL" + uri.getPath() + ":" + method.toLowerCase();
    }
    String group;
    List<String> rest;
    if (seg.get(0).equals("api")) {
      group = "core";
      rest = seg.subList(2, seg.size());
    } else {
      group = seg.get(1);
      rest = seg.subList(3, seg.size());
    }
    if (rest.size() >= 3 && rest.get(0).equals("namespaces")) {
      rest = rest.subList(2, rest.size());
    }
    String resource = rest.get(0);
    boolean named = rest.size() > 1;
    if (rest.size() > 2) {
      resource += "/" + rest.get(2);
    }
    boolean watch = query.matches("(^|.*&)watch=(true|1)(&.*|$)");
    String verb =
        switch (method) {
          case "GET" -> watch ? "watch" : named ? "get" : "list";
          case "POST" -> "create";
          case "PUT" -> "update";
          case "PATCH" -> "patch";
          case "DELETE" -> named ? "delete" : "deletecollection";
          default -> method.toLowerCase();
        };
    return group + "/" + resource + ":" + verb;
  }
}
