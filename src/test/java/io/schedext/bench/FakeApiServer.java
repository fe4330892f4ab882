package io.schedext.bench;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.Node;
import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.Pod;
import io.fabric8.kubernetes.api.model.ReplicationController;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.apps.ReplicaSet;
import io.fabric8.kubernetes.api.model.apps.StatefulSet;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.storage.CSIDriver;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import io.fabric8.kubernetes.api.model.storage.CSIStorageCapacity;
import io.fabric8.kubernetes.api.model.storage.StorageClass;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.vertx.core.Context;
import io.vertx.core.Vertx;
import io.vertx.core.buffer.Buffer;
import io.vertx.core.http.HttpServer;
import io.vertx.core.http.HttpServerOptions;
import io.vertx.core.http.HttpServerResponse;
import io.vertx.core.http.ServerWebSocket;
import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;

/**
 * Just enough of a Kubernetes API server for the service's informers, so that a benchmark can send
 * it watch events over a real watch: every kind the Kubernetes source watches is listed from the
 * objects given at start (resource version 1) and its watches are held open, as websockets (what
 * fabric8 opens first) or as chunked HTTP streams (its fallback). {@link #sendPodEvents} writes pod
 * watch events that were serialized beforehand, so that sending a burst costs this process only the
 * socket writes — an API server serializes an event once, in its watch cache, and then only writes
 * it. Listens on loopback only.
 */
final class FakeApiServer implements AutoCloseable {

  private static final ObjectMapper MAPPER = new ObjectMapper();

  /** The kinds the Kubernetes source watches (see KubernetesCluster#start). */
  private static final List<Class<? extends HasMetadata>> WATCHED =
      List.of(
          Node.class,
          Pod.class,
          Service.class,
          Namespace.class,
          PersistentVolume.class,
          PersistentVolumeClaim.class,
          StorageClass.class,
          CSINode.class,
          CSIDriver.class,
          CSIStorageCapacity.class,
          VolumeAttachment.class,
          PodDisruptionBudget.class,
          ReplicaSet.class,
          StatefulSet.class,
          ReplicationController.class);

  private final Vertx vertx = Vertx.vertx();
  private final Map<String, Buffer> lists = new HashMap<>();
  private final String podsPath;
  private final List<Watch> podWatches = new CopyOnWriteArrayList<>();
  private final HttpServer server;

  /** One open watch: where its events are written, and on which event loop. */
  private record Watch(Context context, Consumer<String> writer) {}

  /** Starts a server listing {@code objects} (each of a watched kind) on a free loopback port. */
  FakeApiServer(List<HasMetadata> objects) throws Exception {
    Map<Class<?>, List<HasMetadata>> byKind = new HashMap<>();
    for (HasMetadata o : objects) {
      if (!WATCHED.contains(o.getClass())) {
        throw new IllegalArgumentException("not a kind the service watches: " + o.getKind());
      }
      byKind.computeIfAbsent(o.getClass(), k -> new ArrayList<>()).add(o);
    }
    for (Class<? extends HasMetadata> kind : WATCHED) {
      lists.put(path(kind), list(kind, byKind.getOrDefault(kind, List.of())));
    }
    podsPath = path(Pod.class);
    server =
        vertx
            .createHttpServer(
                new HttpServerOptions()
                    .setHost("127.0.0.1")
                    .setPort(0)
                    .setMaxWebSocketFrameSize(1 << 20)
                    .setMaxWebSocketMessageSize(1 << 24))
            .webSocketHandler(this::webSocket)
            .requestHandler(
                req -> {
                  Buffer list = lists.get(req.path());
                  HttpServerResponse response =
                      req.response().putHeader("Content-Type", "application/json");
                  if (list == null) {
                    response
                        .setStatusCode(404)
                        .end(
                            "{\"kind\":\"Status\",\"apiVersion\":\"v1\",\"status\":\"Failure\","
                                + "\"reason\":\"NotFound\",\"code\":404}");
                  } else if ("true".equals(req.getParam("watch"))) {
                    response.setChunked(true);
                    response.write(Buffer.buffer());
                    watchOpened(
                        req.path(), Vertx.currentContext(), event -> response.write(event + "\n"));
                  } else {
                    response.end(list);
                  }
                })
            .listen()
            .toCompletionStage()
            .toCompletableFuture()
            .get(30, TimeUnit.SECONDS);
  }

  private void webSocket(ServerWebSocket ws) {
    if (!lists.containsKey(ws.path())) {
      ws.reject(404);
      return;
    }
    watchOpened(ws.path(), Vertx.currentContext(), ws::writeFinalTextFrame);
  }

  private void watchOpened(String path, Context context, Consumer<String> writer) {
    if (path.equals(podsPath)) {
      podWatches.add(new Watch(context, writer));
    }
  }

  /** The server's port. */
  int port() {
    return server.actualPort();
  }

  /** Pod watches open now (the service opens one once its pod list is synced). */
  int podWatches() {
    return podWatches.size();
  }

  /** Writes a kubeconfig for this server (plain HTTP, a dummy token) to {@code file}. */
  void writeKubeconfig(Path file) throws IOException {
    Files.writeString(
        file,
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: bench",
            "  cluster:",
            "    server: http://127.0.0.1:" + port(),
            "contexts:",
            "- name: bench",
            "  context: {cluster: bench, user: bench}",
            "current-context: bench",
            "users:",
            "- name: bench",
            "  user: {token: bench}",
            ""));
  }

  /** A pod watch event, serialized: {@code type} is ADDED, MODIFIED or DELETED. */
  static String podEvent(String type, Pod pod) {
    try {
      return MAPPER.writeValueAsString(Map.of("type", type, "object", pod));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Writes {@code events} to every open pod watch, in order, {@code perSecond} a second (0: all at
   * once, as fast as the socket takes them). Returns once the last one is handed to the event loop.
   */
  void sendPodEvents(List<String> events, int perSecond) {
    if (podWatches.isEmpty()) {
      throw new IllegalStateException("no pod watch is open");
    }
    if (perSecond <= 0) {
      for (Watch w : podWatches) {
        w.context().runOnContext(v -> events.forEach(w.writer()));
      }
      return;
    }
    long t0 = System.nanoTime();
    for (int i = 0; i < events.size(); i++) {
      long due = t0 + i * 1_000_000_000L / perSecond;
      for (long wait = due - System.nanoTime(); wait > 0; wait = due - System.nanoTime()) {
        LockSupport.parkNanos(wait);
      }
      String event = events.get(i);
      for (Watch w : podWatches) {
        w.context().runOnContext(v -> w.writer().accept(event));
      }
    }
  }

  private static String path(Class<? extends HasMetadata> kind) {
    String apiVersion = HasMetadata.getApiVersion(kind);
    return (apiVersion.contains("/") ? "/apis/" : "/api/")
        + apiVersion
        + "/"
        + HasMetadata.getPlural(kind);
  }

  private static Buffer list(Class<? extends HasMetadata> kind, List<HasMetadata> items)
      throws IOException {
    Buffer out = Buffer.buffer();
    try (OutputStream os =
            new OutputStream() {
              @Override
              public void write(int b) {
                out.appendByte((byte) b);
              }

              @Override
              public void write(byte[] b, int off, int len) {
                out.appendBytes(b, off, len);
              }
            };
        JsonGenerator gen = MAPPER.getFactory().createGenerator(os)) {
      gen.writeStartObject();
      gen.writeStringField("apiVersion", HasMetadata.getApiVersion(kind));
      gen.writeStringField("kind", HasMetadata.getKind(kind) + "List");
      gen.writeObjectFieldStart("metadata");
      gen.writeStringField("resourceVersion", "1");
      gen.writeEndObject();
      gen.writeArrayFieldStart("items");
      for (HasMetadata o : items) {
        MAPPER.writeValue(gen, o);
      }
      gen.writeEndArray();
      gen.writeEndObject();
    }
    return out;
  }

  @Override
  public void close() throws Exception {
    vertx.close().toCompletionStage().toCompletableFuture().get(30, TimeUnit.SECONDS);
  }
}
