package io.schedext.testing.realcluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.fabric8.kubernetes.api.model.authentication.TokenRequest;
import io.fabric8.kubernetes.api.model.authentication.TokenRequestBuilder;
import io.fabric8.kubernetes.client.Config;
import io.fabric8.kubernetes.client.KubernetesClient;
import io.fabric8.kubernetes.client.KubernetesClientBuilder;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.GeneralSecurityException;
import java.security.KeyPair;
import java.security.KeyPairGenerator;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.security.cert.CertificateFactory;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Comparator;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import javax.net.ssl.SSLContext;
import javax.net.ssl.TrustManagerFactory;

/**
 * A real control plane on loopback: etcd and kube-apiserver from {@link Assets}, in a temporary
 * directory, on free ports, with a serving certificate the API server generates for 127.0.0.1
 * (trusted through its CA, never skipped), an admin bearer token, a service-account signing key (so
 * {@link #serviceAccountKubeconfig} can ask the TokenRequest API for a real ServiceAccount token),
 * RBAC authorization and an audit log of every request a ServiceAccount makes.
 *
 * <p>There are no kubelets and no controller-manager: see {@link Nodes} for making a node
 * schedulable, and use a fresh namespace per test (namespaces never finish deleting).
 */
public final class ControlPlane implements AutoCloseable {

  /** The audit log records every request of these users' groups, at the Metadata level. */
  private static final String AUDIT_POLICY =
      """
      apiVersion: audit.k8s.io/v1
      kind: Policy
      omitStages: [RequestReceived]
      rules:
      - level: Metadata
        userGroups: ["system:serviceaccounts"]
      - level: None
      """;

  private static final ObjectMapper JSON = new ObjectMapper();

  private final Assets assets;
  private final Path dir;
  private final Path etcdData;
  private final String adminToken;
  private final int apiPort;
  private final String etcdUrl;
  private final Daemon etcd;
  private final Daemon apiServer;
  private final Path adminKubeconfig;
  private KubernetesClient client;
  private HttpClient probe;

  private ControlPlane(Assets assets) throws IOException, GeneralSecurityException {
    this.assets = assets;
    this.dir = Files.createTempDirectory("real-cluster-");
    Path shm = Path.of("/dev/shm");
    // etcd fsyncs every write: on tmpfs that costs nothing, and the data is thrown away anyway.
    this.etcdData =
        Files.isDirectory(shm) && Files.isWritable(shm)
            ? Files.createTempDirectory(shm, "real-cluster-etcd-")
            : Files.createDirectories(dir.resolve("etcd"));
    this.adminToken = randomToken();
    int etcdPort = freePort();
    int peerPort = freePort();
    this.apiPort = freePort();

    Files.writeString(
        dir.resolve("tokens.csv"), adminToken + ",admin,admin-uid,\"system:masters\"\n");
    Files.writeString(dir.resolve("audit-policy.yaml"), AUDIT_POLICY);
    writeServiceAccountKeys();

    this.etcdUrl = "http://127.0.0.1:" + etcdPort;
    String peerUrl = "http://127.0.0.1:" + peerPort;
    this.etcd =
        Daemon.start(
            "etcd",
            List.of(
                assets.program("etcd").toString(),
                "--data-dir",
                etcdData.toString(),
                "--name",
                "default",
                "--listen-client-urls",
                etcdUrl,
                "--advertise-client-urls",
                etcdUrl,
                "--listen-peer-urls",
                peerUrl,
                "--initial-advertise-peer-urls",
                peerUrl,
                "--initial-cluster",
                "default=" + peerUrl),
            dir.resolve("etcd.log"));
    HttpClient plain = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(1)).build();
    etcd.awaitReady(() -> status(plain, etcdUrl + "/health", null) == 200, Duration.ofSeconds(30));

    this.apiServer =
        Daemon.start(
            "kube-apiserver",
            List.of(
                assets.program("kube-apiserver").toString(),
                "--etcd-servers=" + etcdUrl,
                "--bind-address=127.0.0.1",
                "--advertise-address=127.0.0.1",
                "--secure-port=" + apiPort,
                "--cert-dir=" + dir.resolve("certs"),
                "--token-auth-file=" + dir.resolve("tokens.csv"),
                "--authorization-mode=RBAC",
                "--service-account-issuer=https://kubernetes.default.svc.cluster.local",
                "--service-account-key-file=" + dir.resolve("sa.pub"),
                "--service-account-signing-key-file=" + dir.resolve("sa.key"),
                "--service-cluster-ip-range=10.0.0.0/24",
                "--disable-admission-plugins=ServiceAccount",
                "--endpoint-reconciler-type=none",
                "--allow-privileged=true",
                "--profiling=false",
                "--audit-policy-file=" + dir.resolve("audit-policy.yaml"),
                "--audit-log-path=" + dir.resolve("audit.log"),
                "--audit-log-format=json",
                "--audit-log-mode=blocking"),
            dir.resolve("kube-apiserver.log"));
    awaitApiServer();
    this.adminKubeconfig = writeKubeconfig("admin", url(), adminToken);
    this.client = clientFor(adminKubeconfig);
  }

  /** Starts etcd and kube-apiserver; fails with their logs when either does not come up. */
  public static ControlPlane start(Assets assets) {
    try {
      return new ControlPlane(assets);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (GeneralSecurityException e) {
      throw new IllegalStateException(e);
    }
  }

  /** The API server's URL. */
  public String url() {
    return "https://127.0.0.1:" + apiPort;
  }

  /** The temporary directory everything lives in (logs, certificates, kubeconfigs). */
  public Path dir() {
    return dir;
  }

  /** A kubeconfig for the cluster administrator ({@code system:masters}). */
  public Path adminKubeconfig() {
    return adminKubeconfig;
  }

  /** An admin client, closed with the control plane. */
  public KubernetesClient client() {
    return client;
  }

  /** The assets this control plane runs. */
  public Assets assets() {
    return assets;
  }

  /**
   * A kubeconfig with a real token of ServiceAccount {@code namespace/name} (which must exist),
   * from the TokenRequest API, valid for a day.
   */
  public Path serviceAccountKubeconfig(String namespace, String name) {
    return serviceAccountKubeconfig(namespace, name, url());
  }

  /**
   * The same, reaching the API server at {@code server} (a proxy in front of {@link #url()} on
   * 127.0.0.1, so the certificate still matches).
   */
  public Path serviceAccountKubeconfig(String namespace, String name, String server) {
    TokenRequest request =
        new TokenRequestBuilder().withNewSpec().withExpirationSeconds(86_400L).endSpec().build();
    TokenRequest answer =
        client.serviceAccounts().inNamespace(namespace).withName(name).tokenRequest(request);
    return writeKubeconfig(
        namespace + "-" + name + "-" + server.replaceAll("\\W", ""),
        server,
        answer.getStatus().getToken());
  }

  /** The API server's port on 127.0.0.1. */
  public int port() {
    return apiPort;
  }

  /** The user name the API server gives ServiceAccount {@code namespace/name}. */
  public static String serviceAccountUser(String namespace, String name) {
    return "system:serviceaccount:" + namespace + ":" + name;
  }

  /**
   * Every request {@code user} made so far, from the audit log: one entry per request (verb, URI,
   * the response code), watches included once their response has started.
   */
  public List<AuditedRequest> audited(String user) {
    Path log = dir.resolve("audit.log");
    // A watch is logged when its response starts and again when it ends; one entry per request, the
    // latest stage.
    Map<String, AuditedRequest> byId = new LinkedHashMap<>();
    if (!Files.exists(log)) {
      return List.of();
    }
    try (Stream<String> lines = Files.lines(log)) {
      for (String line : (Iterable<String>) lines::iterator) {
        JsonNode e = JSON.readTree(line);
        if (user.equals(e.path("user").path("username").asText())) {
          byId.put(
              e.path("auditID").asText(),
              new AuditedRequest(
                  e.path("verb").asText(),
                  e.path("requestURI").asText(),
                  e.path("objectRef").path("resource").asText(),
                  e.path("objectRef").path("subresource").asText(),
                  e.path("responseStatus").path("code").asInt(),
                  Instant.parse(e.path("requestReceivedTimestamp").asText())));
        }
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return new ArrayList<>(byId.values());
  }

  /**
   * One request from the audit log.
   *
   * @param verb the API verb (list, watch, get, create, ...)
   * @param uri the request URI
   * @param resource the resource, e.g. pods
   * @param subresource the subresource, e.g. binding, or empty
   * @param code the HTTP status of the response
   * @param received when the API server received it
   */
  public record AuditedRequest(
      String verb, String uri, String resource, String subresource, int code, Instant received) {}

  /**
   * Compacts etcd's history up to its current revision, through etcd's JSON gateway ({@code
   * /v3/kv/range} for the revision, then {@code /v3/kv/compaction}), as the API server's own
   * periodic compaction does: a watch resuming from an older resourceVersion than the API server
   * still has is answered 410 Gone, and its client must list again. Returns the revision.
   */
  public long compactEtcd() {
    HttpClient http = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    try {
      JsonNode range =
          JSON.readTree(postJson(http, etcdUrl + "/v3/kv/range", "{\"key\":\"AA==\",\"limit\":1}"));
      long revision = range.path("header").path("revision").asLong();
      if (revision <= 0) {
        throw new IllegalStateException("etcd answered no revision: " + range);
      }
      postJson(
          http,
          etcdUrl + "/v3/kv/compaction",
          "{\"revision\":\"" + revision + "\",\"physical\":true}");
      return revision;
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private static String postJson(HttpClient http, String url, String body) throws IOException {
    try {
      HttpResponse<String> r =
          http.send(
              HttpRequest.newBuilder(URI.create(url))
                  .timeout(Duration.ofSeconds(30))
                  .POST(HttpRequest.BodyPublishers.ofString(body))
                  .build(),
              HttpResponse.BodyHandlers.ofString());
      if (r.statusCode() != 200) {
        throw new IOException("etcd answered " + r.statusCode() + " to " + url + ": " + r.body());
      }
      return r.body();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IOException(e);
    }
  }

  /** Stops the API server (SIGTERM, as an operator restarting it would); etcd keeps the data. */
  public void stopApiServer() {
    apiServer.stop();
  }

  /**
   * The same, killing it if it still runs after {@code patience}: with watches open it often waits
   * out the 15 s of {@link #stopApiServer()}.
   */
  public void stopApiServer(Duration patience) {
    apiServer.stop(patience);
  }

  /**
   * Starts the API server again on the same port with the same certificate, and waits until it is
   * ready.
   */
  public void startApiServer() {
    apiServer.start();
    awaitApiServer();
  }

  private void awaitApiServer() {
    apiServer.awaitReady(
        () -> {
          if (probe == null) {
            probe = trustingClient();
          }
          return probe != null && status(probe, url() + "/readyz", adminToken) == 200;
        },
        Duration.ofSeconds(90));
  }

  /**
   * An HTTP client that trusts the API server's own CA, once the API server has written its
   * certificate.
   */
  private HttpClient trustingClient() {
    Path crt = dir.resolve("certs/apiserver.crt");
    if (!Files.exists(crt)) {
      return null;
    }
    try (InputStream in = Files.newInputStream(crt)) {
      KeyStore trust = KeyStore.getInstance(KeyStore.getDefaultType());
      trust.load(null, null);
      int i = 0;
      for (Certificate c : CertificateFactory.getInstance("X.509").generateCertificates(in)) {
        trust.setCertificateEntry("ca-" + i++, c);
      }
      TrustManagerFactory tmf =
          TrustManagerFactory.getInstance(TrustManagerFactory.getDefaultAlgorithm());
      tmf.init(trust);
      SSLContext ssl = SSLContext.getInstance("TLS");
      ssl.init(null, tmf.getTrustManagers(), null);
      return HttpClient.newBuilder().sslContext(ssl).connectTimeout(Duration.ofSeconds(1)).build();
    } catch (IOException | GeneralSecurityException e) {
      return null; // written but not complete yet: try again at the next check
    }
  }

  private static int status(HttpClient http, String url, String token) {
    HttpRequest.Builder b =
        HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET();
    if (token != null) {
      b.header("Authorization", "Bearer " + token);
    }
    try {
      return http.send(b.build(), HttpResponse.BodyHandlers.discarding()).statusCode();
    } catch (IOException e) {
      return -1;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return -1;
    }
  }

  /**
   * Writes a kubeconfig for {@code token} at {@code server}, trusting the API server's CA; returns
   * its path.
   */
  private Path writeKubeconfig(String user, String server, String token) {
    String yaml =
        """
        apiVersion: v1
        kind: Config
        clusters:
        - name: real
          cluster:
            server: %s
            certificate-authority: %s
        users:
        - name: %s
          user:
            token: %s
        contexts:
        - name: real
          context:
            cluster: real
            user: %s
        current-context: real
        """
            .formatted(server, dir.resolve("certs/apiserver.crt"), user, token, user);
    Path path = dir.resolve("kubeconfig-" + user);
    try {
      Files.writeString(path, yaml);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return path;
  }

  /** A fabric8 client for a kubeconfig this control plane wrote. */
  public static KubernetesClient clientFor(Path kubeconfig) {
    try {
      Config config =
          Config.fromKubeconfig(null, Files.readString(kubeconfig), kubeconfig.toString());
      // Deleting thousands of pods in one call takes longer than the default 10 s on two shared
      // CPUs.
      config.setRequestTimeout(120_000);
      return new KubernetesClientBuilder().withConfig(config).build();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  private void writeServiceAccountKeys() throws IOException, GeneralSecurityException {
    KeyPairGenerator g = KeyPairGenerator.getInstance("RSA");
    g.initialize(2048);
    KeyPair pair = g.generateKeyPair();
    Files.writeString(dir.resolve("sa.key"), pem("PRIVATE KEY", pair.getPrivate().getEncoded()));
    Files.writeString(dir.resolve("sa.pub"), pem("PUBLIC KEY", pair.getPublic().getEncoded()));
  }

  private static String pem(String type, byte[] der) {
    return "-----BEGIN "
        + type
        + "-----\n"
        + Base64.getMimeEncoder(64, "\n".getBytes()).encodeToString(der)
        + "\n-----END "
        + type
        + "-----\n";
  }

  private static String randomToken() {
    byte[] b = new byte[24];
    new SecureRandom().nextBytes(b);
    return HexFormat.of().formatHex(b);
  }

  /** A port free on loopback right now. */
  public static int freePort() {
    try (ServerSocket s = new ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      s.setReuseAddress(true);
      return s.getLocalPort();
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /**
   * Stops the API server and etcd and deletes their files; with {@code -Dreal-cluster.keep=true}
   * the directory with the logs, configurations and audit log is kept.
   */
  @Override
  public void close() {
    if (client != null) {
      client.close();
    }
    apiServer.stop();
    etcd.stop();
    deleteTree(etcdData);
    if (!Boolean.getBoolean("real-cluster.keep")) {
      deleteTree(dir);
    }
  }

  /** The end of the API server's log, for a failure message. */
  public String apiServerLogTail(int lines) {
    return apiServer.tail(lines);
  }

  private static void deleteTree(Path root) {
    if (!Files.exists(root)) {
      return;
    }
    try (Stream<Path> s = Files.walk(root)) {
      s.sorted(Comparator.reverseOrder()).forEach(p -> p.toFile().delete());
    } catch (IOException e) {
      // Best effort: a temporary directory left behind is not worth failing a run for.
    }
  }
}
