package io.schedext.testing;

import static org.awaitility.Awaitility.await;

import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.server.mock.KubernetesCrudDispatcher;
import io.fabric8.kubernetes.client.server.mock.KubernetesMockServer;
import io.fabric8.mockwebserver.Context;
import io.fabric8.mockwebserver.MockWebServer;
import io.schedext.cluster.ClusterSource;
import io.schedext.cluster.KubernetesCluster;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * fabric8's mock API server in CRUD mode (real lists and watches), plus the {@code
 * pods/{name}/binding} subresource its CRUD mode lacks: a POST there sets {@code spec.nodeName} on
 * the stored pod, answers 409 when the pod is already bound, 404 when it is missing, and can be
 * told to fail the next bindings with a given HTTP status.
 */
public final class MockApi implements AutoCloseable {

  private static final Pattern BINDING =
      Pattern.compile("/api/v1/namespaces/([^/]+)/pods/([^/]+)/binding");
  private static final Pattern TARGET =
      Pattern.compile("\"target\"\\s*:\\s*\\{[^}]*\"name\"\\s*:\\s*\"([^\"]+)\"");
  private static final Pattern UID = Pattern.compile("\"uid\"\\s*:\\s*\"([^\"]+)\"");

  private final KubernetesMockServer server;
  private final KubernetesCrudDispatcher crud;
  private final KubernetesClient client;
  private final AtomicInteger bindingFailures = new AtomicInteger();
  private volatile int bindingFailureStatus = 500;
  private final AtomicInteger bindings = new AtomicInteger();
  private final AtomicInteger lostWrites = new AtomicInteger();

  /** Starts the server on a free loopback port. */
  public MockApi() {
    crud =
        new KubernetesCrudDispatcher(List.of()) {
          @Override
          public io.fabric8.mockwebserver.http.MockResponse handleCreate(
              io.fabric8.mockwebserver.http.RecordedRequest request) {
            Matcher m = BINDING.matcher(request.getPath());
            if (m.matches()) {
              return bind(m.group(1), m.group(2), request.getBody().readUtf8());
            }
            return super.handleCreate(request);
          }
        };
    server =
        new KubernetesMockServer(new Context(), new MockWebServer(), new HashMap<>(), crud, false);
    server.init(java.net.InetAddress.getLoopbackAddress(), 0);
    client = server.createClient();
  }

  private io.fabric8.mockwebserver.http.MockResponse bind(
      String namespace, String name, String body) {
    bindings.incrementAndGet();
    if (bindingFailures.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      return status(
          bindingFailureStatus,
          bindingFailureStatus == 403 ? "Forbidden" : "InternalError",
          "injected binding failure");
    }
    Matcher target = TARGET.matcher(body);
    Matcher uid = UID.matcher(body);
    // Inside the dispatcher: read the stored pod directly (a nested HTTP call would block the
    // server's event loop).
    io.fabric8.mockwebserver.http.MockResponse stored =
        crud.handleGet("/api/v1/namespaces/" + namespace + "/pods/" + name);
    Pod pod =
        stored.code() == 200
            ? io.fabric8.kubernetes.client.utils.Serialization.unmarshal(
                stored.getBody().readUtf8(), Pod.class)
            : null;
    if (pod == null) {
      return status(404, "NotFound", "pods \"" + name + "\" not found");
    }
    if (uid.find() && !uid.group(1).equals(pod.getMetadata().getUid())) {
      return status(
          409,
          "Conflict",
          "Precondition failed: UID in precondition: "
              + uid.group(1)
              + ", UID in object meta: "
              + pod.getMetadata().getUid());
    }
    if (pod.getSpec().getNodeName() != null && !pod.getSpec().getNodeName().isEmpty()) {
      return status(
          409,
          "Conflict",
          "pod " + name + " is already assigned to node \"" + pod.getSpec().getNodeName() + "\"");
    }
    if (!target.find()) {
      return status(400, "BadRequest", "no target");
    }
    if (lostWrites.getAndUpdate(n -> Math.max(0, n - 1)) > 0) {
      // Accepted but never stored: no watch event will ever confirm this binding.
      return new io.fabric8.mockwebserver.http.MockResponse()
          .setResponseCode(201)
          .setBody(
              "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Success\",\"code\":201}");
    }
    pod.getSpec().setNodeName(target.group(1));
    // Stored after the reply, from another thread, as the API server's write would land.
    CompletableFuture.runAsync(() -> client.pods().inNamespace(namespace).resource(pod).update());
    return new io.fabric8.mockwebserver.http.MockResponse()
        .setResponseCode(201)
        .setBody("{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Success\",\"code\":201}");
  }

  private static io.fabric8.mockwebserver.http.MockResponse status(
      int code, String reason, String message) {
    return new io.fabric8.mockwebserver.http.MockResponse()
        .setResponseCode(code)
        .setBody(
            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\",\"message\":\""
                + message.replace("\"", "\\\"")
                + "\",\"reason\":\""
                + reason
                + "\",\"code\":"
                + code
                + "}");
  }

  /**
   * Waits until every watch of {@code source} is open, not only listed. This mock replays no
   * history to a watch: an object changed between an informer's list and its watch would never
   * reach the cache, so a test that changes objects after readiness waits for this first.
   */
  public static void awaitWatchesOpen(ClusterSource source) {
    var cluster = (KubernetesCluster) source;
    await().atMost(Duration.ofSeconds(20)).until(() -> cluster.watchesDown().isEmpty());
  }

  /** A client of this server. */
  public KubernetesClient client() {
    return client;
  }

  /** A new client of this server. */
  public KubernetesClient newClient() {
    return server.createClient();
  }

  /** Makes the next {@code n} binding calls fail with HTTP {@code status}. */
  public void failNextBindings(int n, int status) {
    bindingFailureStatus = status;
    bindingFailures.set(n);
  }

  /**
   * Makes the next {@code n} bindings answer 201 without storing anything (the confirming event
   * never comes).
   */
  public void loseNextBindings(int n) {
    lostWrites.set(n);
  }

  /** How many binding calls arrived. */
  public int bindingCalls() {
    return bindings.get();
  }

  /** Writes a kubeconfig for this server to a temporary file and returns its path. */
  public Path kubeconfig() {
    return kubeconfig(client.getMasterUrl().toString());
  }

  /** The loopback address this server listens on. */
  public java.net.InetSocketAddress address() {
    return new java.net.InetSocketAddress(
        java.net.InetAddress.getLoopbackAddress(), client.getMasterUrl().getPort());
  }

  /**
   * Writes a kubeconfig naming {@code url} (this server, or a proxy in front of it) and returns its
   * path.
   */
  public Path kubeconfig(String url) {
    String yaml =
        "apiVersion: v1\nkind: Config\nclusters:\n- name: mock\n  cluster:\n    server: "
            + url.replaceAll("/$", "")
            + "\nusers:\n- name: u\n  user:\n    token: t\n"
            + "contexts:\n- name: c\n  context:\n    cluster: mock\n    user: u\n    namespace: default\n"
            + "current-context: c\n";
    try {
      Path p = Files.createTempFile("kubeconfig", ".yaml");
      Files.writeString(p, yaml);
      p.toFile().deleteOnExit();
      return p;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  @Override
  public void close() {
    client.close();
    server.destroy();
  }
}
