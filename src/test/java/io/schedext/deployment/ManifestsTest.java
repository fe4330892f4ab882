package io.schedext.deployment;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assumptions.assumeThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.ConfigMap;
import io.fabric8.kubernetes.api.model.Container;
import io.fabric8.kubernetes.api.model.ContainerPort;
import io.fabric8.kubernetes.api.model.EnvVar;
import io.fabric8.kubernetes.api.model.HTTPGetAction;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.fabric8.kubernetes.api.model.IntOrString;
import io.fabric8.kubernetes.api.model.Probe;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceAccount;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.VolumeMount;
import io.fabric8.kubernetes.api.model.apps.Deployment;
import io.fabric8.kubernetes.api.model.policy.v1.PodDisruptionBudget;
import io.fabric8.kubernetes.api.model.rbac.ClusterRole;
import io.fabric8.kubernetes.api.model.rbac.ClusterRoleBinding;
import io.fabric8.kubernetes.api.model.rbac.PolicyRule;
import io.fabric8.kubernetes.api.model.rbac.Role;
import io.fabric8.kubernetes.api.model.rbac.RoleBinding;
import io.fabric8.kubernetes.api.model.rbac.RoleRef;
import io.fabric8.kubernetes.api.model.rbac.Subject;
import io.schedext.cluster.ApiAccess;
import io.schedext.testing.Http;
import java.io.IOException;
import java.lang.reflect.Field;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.autoconfigure.ssl.PemSslBundleProperties;
import org.springframework.boot.autoconfigure.ssl.SslProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.test.web.server.LocalManagementPort;
import org.springframework.boot.web.server.Ssl;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

/**
 * The manifests under deployment/ are valid Kubernetes objects, grant exactly what the code needs,
 * and point kube-scheduler and kubelet at paths and ports this service really serves. The service
 * runs here with a separate management port, as both layouts configure it, so probe paths and verb
 * URLs are checked against real answers.
 */
@SpringBootTest(
    webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT,
    properties = "management.server.port=0")
class ManifestsTest {

  static final Path BASE = Manifests.ROOT.resolve("base");
  static final Path STANDALONE = Manifests.ROOT.resolve("overlays/standalone");
  static final Path MONITORING = Manifests.ROOT.resolve("monitoring");
  static final String NAMESPACE = "scheduler-extender";
  static final String SERVICE_ACCOUNT = "scheduler-extender";
  static final String EXTENDER_CLUSTER_ROLE = "scheduler-extender";
  static final Set<String> VERBS_KUBE_SCHEDULER_SENDS =
      Set.of("filter", "prioritize", "preempt", "bind");

  private static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());

  @Value("${local.server.port}")
  int port;

  @LocalManagementPort int managementPort;

  // ------------------------------------------------------------------------------------------------ the layouts

  /**
   * One rendered layout.
   *
   * @param name base or standalone
   * @param objects its cluster objects
   * @param schedulerConfigs the KubeSchedulerConfiguration it gives kube-scheduler (in a ConfigMap
   *     or a snippet)
   */
  record Layout(String name, List<HasMetadata> objects, List<JsonNode> schedulerConfigs) {
    @Override
    public String toString() {
      return name;
    }

    <T extends HasMetadata> List<T> all(Class<T> type) {
      return objects.stream().filter(type::isInstance).map(type::cast).toList();
    }

    <T extends HasMetadata> T one(Class<T> type) {
      List<T> list = all(type);
      assertThat(list).as(name + ": one " + type.getSimpleName()).hasSize(1);
      return list.get(0);
    }

    Deployment deployment() {
      return one(Deployment.class);
    }

    Container extender() {
      return container(deployment(), "extender");
    }

    JsonNode schedulerConfig() {
      assertThat(schedulerConfigs).as(name + ": one KubeSchedulerConfiguration").hasSize(1);
      return schedulerConfigs.get(0);
    }

    JsonNode extenderEntry() {
      JsonNode extenders = schedulerConfig().path("extenders");
      assertThat(extenders.size()).as(name + ": one extender entry").isEqualTo(1);
      return extenders.get(0);
    }
  }

  static Layout base() {
    List<HasMetadata> objects = Manifests.render(BASE).stream().map(Manifests::typed).toList();
    List<JsonNode> configs = new ArrayList<>();
    for (HasMetadata o : objects) {
      if (o instanceof ConfigMap cm) {
        for (String v : cm.getData().values()) {
          configs.add(readYaml(v));
        }
      }
    }
    return new Layout("base (sidecar)", objects, configs);
  }

  static Layout standalone() {
    List<HasMetadata> objects =
        Manifests.render(STANDALONE).stream().map(Manifests::typed).toList();
    List<JsonNode> snippets =
        Manifests.yamlFiles().stream()
            .filter(f -> f.startsWith(STANDALONE))
            .flatMap(f -> Manifests.documents(f).stream())
            .filter(Manifests.Document::isSchedulerConfiguration)
            .map(Manifests.Document::tree)
            .toList();
    return new Layout("overlays/standalone", objects, snippets);
  }

  static Stream<Layout> layouts() {
    return Stream.of(base(), standalone());
  }

  // ------------------------------------------------------------------------------------- every
  // file, typed

  @Test
  void
      everyYamlDocumentIsAKnownKubernetesKindWithoutUnknownFieldsOrAFileOfKubeSchedulerOrPrometheus() {
    List<Path> files = Manifests.yamlFiles();
    assertThat(files).isNotEmpty();
    for (Path f : files) {
      for (Manifests.Document d : Manifests.documents(f)) {
        if (d.isPrometheusFile()) {
          // Rules, their tests and a scrape job: MonitoringFilesTest checks them with promtool.
          assertThat(f).as(f + ": Prometheus's files live in monitoring/").startsWith(MONITORING);
          continue;
        }
        assertThat(d.apiVersion()).as(f + ": apiVersion").isNotBlank();
        assertThat(d.kind()).as(f + ": kind").isNotBlank();
        if (d.isKustomization()) {
          assertThat(f.getFileName())
              .as(f + ": a Kustomization lives in kustomization.yaml")
              .hasToString(Manifests.KUSTOMIZATION);
        } else if (d.isSchedulerConfiguration()) {
          assertThat(d.apiVersion()).isEqualTo("kubescheduler.config.k8s.io/v1");
          assertThat(d.kind()).isEqualTo("KubeSchedulerConfiguration");
        } else if (d.isPrometheusOperatorObject()) {
          // Not in fabric8's model; MonitoringFilesTest checks what they select and contain.
          assertThat(d.apiVersion()).as(f.toString()).isEqualTo("monitoring.coreos.com/v1");
          assertThat(d.kind()).as(f.toString()).isIn("PodMonitor", "PrometheusRule");
          assertThat(d.tree().path("metadata").path("name").asText()).as(f.toString()).isNotBlank();
          assertThat(d.tree().path("metadata").path("namespace").asText())
              .as(f.toString())
              .isEqualTo(NAMESPACE);
        } else {
          assertThat(Manifests.typed(d).getMetadata().getName())
              .as(f + ": metadata.name")
              .isNotBlank();
        }
      }
    }
  }

  @Test
  void everyManifestIsUsedByAKustomizationExceptTheFilesOfKubeSchedulerAndPrometheus() {
    Set<Path> used = Manifests.filesUsedByKustomizations();
    for (Path f : Manifests.yamlFiles()) {
      boolean programsOnly =
          Manifests.documents(f).stream()
              .allMatch(d -> d.isSchedulerConfiguration() || d.isPrometheusFile());
      assertThat(used.contains(f.normalize()) || programsOnly)
          .as(
              f
                  + " is listed by a kustomization (or is a KubeSchedulerConfiguration for"
                  + " kube-scheduler, or a file of Prometheus's)")
          .isTrue();
    }
  }

  @Test
  void everyManifestStartsWithACommentSayingWhy() throws IOException {
    for (Path f : Manifests.yamlFiles()) {
      String first = Files.readAllLines(f, StandardCharsets.UTF_8).get(0);
      assertThat(first).as(f + " opens with a comment").startsWith("#");
    }
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("layouts")
  void kubectlKustomizeRendersTheSameObjectsAsThisTestReads(Layout layout) throws Exception {
    Path dir = layout.name().startsWith("base") ? BASE : STANDALONE;
    String rendered = kubectlKustomize(dir);
    assumeThat(rendered).as("kubectl on PATH").isNotNull();
    Set<String> theirs = new TreeSet<>();
    try (var parser = YAML.getFactory().createParser(rendered)) {
      for (var it = YAML.readValues(parser, JsonNode.class); it.hasNext(); ) {
        JsonNode n = it.next();
        theirs.add(
            n.path("kind").asText()
                + " "
                + n.path("metadata").path("namespace").asText()
                + "/"
                + n.path("metadata").path("name").asText());
      }
    }
    Set<String> ours = new TreeSet<>();
    layout
        .objects()
        .forEach(
            o ->
                ours.add(
                    o.getKind()
                        + " "
                        + (o.getMetadata().getNamespace() == null
                            ? ""
                            : o.getMetadata().getNamespace())
                        + "/"
                        + o.getMetadata().getName()));
    assertThat(ours).isEqualTo(theirs);
  }

  static String kubectlKustomize(Path dir) {
    try {
      Process p =
          new ProcessBuilder("kubectl", "kustomize", dir.toString())
              .redirectErrorStream(false)
              .start();
      String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
      String err = new String(p.getErrorStream().readAllBytes(), StandardCharsets.UTF_8);
      if (!p.waitFor(60, TimeUnit.SECONDS)) {
        p.destroyForcibly();
        return null;
      }
      assertThat(p.exitValue()).as("kubectl kustomize " + dir + ": " + err).isZero();
      return out;
    } catch (IOException e) {
      return null;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  // --------------------------------------------------------------------------------------------------- RBAC

  @ParameterizedTest(name = "{0}")
  @MethodSource("layouts")
  void theExtendersClusterRoleGrantsExactlyWhatTheCodeWatchesAndWrites(Layout layout) {
    List<ClusterRole> roles = layout.all(ClusterRole.class);
    assertThat(roles)
        .extracting(r -> r.getMetadata().getName())
        .containsExactly(EXTENDER_CLUSTER_ROLE);
    Set<String> granted = new TreeSet<>();
    for (PolicyRule rule : roles.get(0).getRules()) {
      assertThat(rule.getResourceNames())
          .as("no resourceNames: the informers list whole collections")
          .isEmpty();
      assertThat(rule.getNonResourceURLs()).isEmpty();
      for (String group : rule.getApiGroups()) {
        for (String resource : rule.getResources()) {
          for (String verb : rule.getVerbs()) {
            assertThat(List.of(group, resource, verb)).as("no wildcards").doesNotContain("*");
            granted.add((group.isEmpty() ? "core" : group) + "/" + resource + ":" + verb);
          }
        }
      }
    }
    Set<String> needed = ApiAccess.triples();
    Set<String> missing = new TreeSet<>(needed);
    missing.removeAll(granted);
    Set<String> extra = new TreeSet<>(granted);
    extra.removeAll(needed);
    assertThat(missing).as("needed by the code but not granted").isEmpty();
    assertThat(extra).as("granted but not needed by the code").isEmpty();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("layouts")
  void theDeploymentRunsAsTheServiceAccountTheRolesAreBoundTo(Layout layout) {
    ServiceAccount sa = layout.one(ServiceAccount.class);
    assertThat(sa.getMetadata().getName()).isEqualTo(SERVICE_ACCOUNT);
    assertThat(sa.getMetadata().getNamespace()).isEqualTo(NAMESPACE);
    assertThat(layout.deployment().getSpec().getTemplate().getSpec().getServiceAccountName())
        .isEqualTo(SERVICE_ACCOUNT);
    for (ClusterRoleBinding b : layout.all(ClusterRoleBinding.class)) {
      assertThat(b.getSubjects())
          .as(b.getMetadata().getName())
          .allSatisfy(ManifestsTest::isOurServiceAccount);
    }
    for (RoleBinding b : layout.all(RoleBinding.class)) {
      assertThat(b.getSubjects())
          .as(b.getMetadata().getName())
          .allSatisfy(ManifestsTest::isOurServiceAccount);
    }
    assertThat(bound(layout)).contains("ClusterRole " + EXTENDER_CLUSTER_ROLE);
  }

  private static void isOurServiceAccount(Subject s) {
    assertThat(s.getKind()).isEqualTo("ServiceAccount");
    assertThat(s.getName()).isEqualTo(SERVICE_ACCOUNT);
    assertThat(s.getNamespace()).isEqualTo(NAMESPACE);
  }

  /** "Kind name" (plus " in namespace" for RoleBindings) of every role bound in the layout. */
  private static Set<String> bound(Layout layout) {
    Set<String> out = new TreeSet<>();
    for (ClusterRoleBinding b : layout.all(ClusterRoleBinding.class)) {
      out.add(ref(b.getRoleRef()));
    }
    for (RoleBinding b : layout.all(RoleBinding.class)) {
      out.add(ref(b.getRoleRef()) + " in " + b.getMetadata().getNamespace());
    }
    return out;
  }

  private static String ref(RoleRef r) {
    assertThat(r.getApiGroup()).isEqualTo("rbac.authorization.k8s.io");
    return r.getKind() + " " + r.getName();
  }

  @Test
  void theSidecarKubeSchedulerGetsTheBuiltInSchedulerRolesAndItsOwnLeaseOnly() {
    Layout base = base();
    JsonNode le = base.schedulerConfig().path("leaderElection");
    assertThat(le.path("leaderElect").asBoolean()).as("leader election with 2 replicas").isTrue();
    String lease = le.path("resourceName").asText();
    String leaseNamespace = le.path("resourceNamespace").asText();
    assertThat(leaseNamespace).isEqualTo(NAMESPACE);
    Role leaseRole = base.one(Role.class);
    assertThat(leaseRole.getMetadata().getNamespace()).isEqualTo(leaseNamespace);
    assertThat(leaseRole.getRules())
        .singleElement()
        .satisfies(
            r -> {
              assertThat(r.getApiGroups()).containsExactly("coordination.k8s.io");
              assertThat(r.getResources()).containsExactly("leases");
              assertThat(r.getResourceNames()).containsExactly(lease);
              assertThat(r.getVerbs()).containsExactlyInAnyOrder("get", "update");
            });
    assertThat(bound(base))
        .containsExactlyInAnyOrder(
            "ClusterRole " + EXTENDER_CLUSTER_ROLE,
            "ClusterRole system:kube-scheduler",
            "ClusterRole system:volume-scheduler",
            "Role extension-apiserver-authentication-reader in kube-system",
            "Role " + leaseRole.getMetadata().getName() + " in " + NAMESPACE);
  }

  @Test
  void theStandaloneExtenderGetsNoneOfKubeSchedulersPermissions() {
    Layout standalone = standalone();
    assertThat(bound(standalone)).containsExactly("ClusterRole " + EXTENDER_CLUSTER_ROLE);
    assertThat(standalone.all(Role.class)).isEmpty();
  }

  // ---------------------------------------------------------------------------------------- the
  // Deployment

  @ParameterizedTest(name = "{0}")
  @MethodSource("layouts")
  void twoReplicasCoveredByTheDisruptionBudget(Layout layout) {
    Deployment d = layout.deployment();
    assertThat(d.getSpec().getReplicas()).isEqualTo(2);
    Map<String, String> podLabels = d.getSpec().getTemplate().getMetadata().getLabels();
    assertThat(podLabels).containsAllEntriesOf(d.getSpec().getSelector().getMatchLabels());
    PodDisruptionBudget pdb = layout.one(PodDisruptionBudget.class);
    assertThat(pdb.getMetadata().getNamespace()).isEqualTo(d.getMetadata().getNamespace());
    assertThat(podLabels).containsAllEntriesOf(pdb.getSpec().getSelector().getMatchLabels());
    assertThat(pdb.getSpec().getMinAvailable().getIntVal())
        .isBetween(1, d.getSpec().getReplicas() - 1);
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("layouts")
  void theExtenderWatchesTheClusterWithResourcesAndARestrictedSecurityContext(Layout layout) {
    Container c = layout.extender();
    assertThat(env(c)).containsEntry("EXTENDER_CLUSTER_SOURCE", "kubernetes");
    assertThat(c.getResources().getRequests()).containsKeys("cpu", "memory");
    assertThat(c.getResources().getLimits()).containsKey("memory");
    assertThat(c.getSecurityContext().getAllowPrivilegeEscalation()).isFalse();
    assertThat(c.getSecurityContext().getCapabilities().getDrop()).containsExactly("ALL");
    assertThat(
            layout
                .deployment()
                .getSpec()
                .getTemplate()
                .getSpec()
                .getSecurityContext()
                .getRunAsNonRoot())
        .isTrue();
  }

  @ParameterizedTest(name = "{0}")
  @MethodSource("layouts")
  void theExtendersProbesHitTheActuatorEndpointsOnTheManagementPort(Layout layout) {
    Container c = layout.extender();
    Map<String, String> env = env(c);
    int management = Integer.parseInt(env.get("MANAGEMENT_SERVER_PORT"));
    assertThat(management).isNotEqualTo(Integer.parseInt(env.get("SERVER_PORT")));
    assertThat(env.get("MANAGEMENT_SERVER_ADDRESS"))
        .as("kubelet probes the pod IP")
        .isEqualTo("0.0.0.0");
    assertProbe(c, c.getLivenessProbe(), "/actuator/health/liveness", management);
    assertProbe(c, c.getReadinessProbe(), "/actuator/health/readiness", management);
    if (c.getStartupProbe() != null) {
      assertProbe(c, c.getStartupProbe(), "/actuator/health/liveness", management);
    }
  }

  private void assertProbe(Container c, Probe probe, String path, int containerPort) {
    assertThat(probe).as(c.getName() + ": probe for " + path).isNotNull();
    HTTPGetAction get = probe.getHttpGet();
    assertThat(get.getPath()).isEqualTo(path);
    assertThat(get.getScheme()).as("plain HTTP on the management port").isIn(null, "HTTP");
    assertThat(portNumber(c, get.getPort())).isEqualTo(containerPort);
    // Readiness comes once the cluster state is in and the warm-up has run, after start.
    Http.Reply r =
        await()
            .atMost(Duration.ofSeconds(30))
            .until(() -> new Http(managementPort).get(path), reply -> reply.status() == 200);
    assertThat(r.status())
        .as("GET " + path + " on the running service's management port")
        .isEqualTo(200);
    assertThat(r.json().get("status").asText()).isEqualTo("UP");
  }

  @Test
  void theSidecarKubeSchedulerIsProbedOnItsSecurePortAndReadsTheConfigMap() {
    Layout base = base();
    Container ks = container(base.deployment(), "kube-scheduler");
    HTTPGetAction get = ks.getLivenessProbe().getHttpGet();
    assertThat(get.getPath()).isEqualTo("/healthz");
    assertThat(get.getScheme()).isEqualTo("HTTPS");
    assertThat(portNumber(ks, get.getPort()))
        .as("kube-scheduler's default secure port")
        .isEqualTo(10259);
    String config =
        ks.getCommand().stream()
            .filter(a -> a.startsWith("--config="))
            .findFirst()
            .orElseThrow(() -> new AssertionError("kube-scheduler without --config"))
            .substring("--config=".length());
    String dir = config.substring(0, config.lastIndexOf('/'));
    VolumeMount mount =
        ks.getVolumeMounts().stream()
            .filter(m -> m.getMountPath().equals(dir))
            .findFirst()
            .orElseThrow(() -> new AssertionError("no volume mounted at " + dir));
    ConfigMap cm = base.one(ConfigMap.class);
    assertThat(volume(base.deployment(), mount.getName()).getConfigMap().getName())
        .isEqualTo(cm.getMetadata().getName());
    assertThat(cm.getData()).containsKey(config.substring(config.lastIndexOf('/') + 1));
  }

  // ------------------------------------------------------------------------ kube-scheduler ->
  // extender

  @ParameterizedTest(name = "{0}")
  @MethodSource("layouts")
  void kubeSchedulerCallsTheControllersPathsForEveryVerb(Layout layout) {
    JsonNode e = layout.extenderEntry();
    URI url = URI.create(e.path("urlPrefix").asText());
    assertThat(url.getPath())
        .as("urlPrefix path = the controller's default-profile prefix")
        .isEqualTo(endpointPrefix());
    Set<String> verbs = new TreeSet<>();
    for (String field : List.of("filterVerb", "prioritizeVerb", "preemptVerb", "bindVerb")) {
      assertThat(e.path(field).asText()).as(field).isNotBlank();
      verbs.add(e.path(field).asText());
    }
    assertThat(verbs).isEqualTo(new TreeSet<>(VERBS_KUBE_SCHEDULER_SENDS));
    for (String verb : verbs) {
      Http.Reply r = new Http(port).post(url.getPath() + "/" + verb, "{}");
      assertThat(r.status())
          .as("POST " + url.getPath() + "/" + verb + " is served (an empty body is a 400)")
          .isEqualTo(400);
    }
    assertThat(e.path("nodeCacheCapable").asBoolean()).isTrue();
    assertThat(e.path("weight").asInt()).isPositive();
    assertThat(e.path("ignorable").asBoolean(false)).isFalse();
    assertThat(e.path("httpTimeout").asText()).matches("\\d+(ms|s)");
    Duration bindTimeout =
        DurationStyle.detectAndParse(env(layout.extender()).get("EXTENDER_BIND_TIMEOUT"));
    assertThat(bindTimeout)
        .as("the extender's Binding call gives up before kube-scheduler gives up on bind")
        .isLessThan(DurationStyle.detectAndParse(e.path("httpTimeout").asText()));
  }

  /** The path prefix of the default profile's verbs, as the extender's endpoint declares it. */
  private static String endpointPrefix() {
    try {
      Field prefix =
          Class.forName("io.schedext.extender.ExtenderEndpoint")
              .getDeclaredField("DEFAULT_PROFILE_PREFIX");
      prefix.setAccessible(true);
      return (String) prefix.get(null);
    } catch (ReflectiveOperationException e) {
      throw new AssertionError(e);
    }
  }

  @Test
  void theSidecarKubeSchedulerReachesTheExtenderOverLoopbackOnly() {
    Layout base = base();
    JsonNode e = base.extenderEntry();
    URI url = URI.create(e.path("urlPrefix").asText());
    Map<String, String> env = env(base.extender());
    assertThat(url.getScheme()).isEqualTo("http");
    assertThat(url.getHost()).isEqualTo("127.0.0.1");
    assertThat(url.getPort()).isEqualTo(Integer.parseInt(env.get("SERVER_PORT")));
    assertThat(env.get("SERVER_ADDRESS")).isIn(null, "127.0.0.1");
    assertThat(env).doesNotContainKey("SERVER_SSL_BUNDLE");
    assertThat(e.path("enableHTTPS").asBoolean(false)).isFalse();
    JsonNode profiles = base.schedulerConfig().path("profiles");
    assertThat(profiles.size()).isEqualTo(1);
    assertThat(profiles.get(0).path("schedulerName").asText()).isEqualTo("extender-scheduler");
  }

  @Test
  void theStandaloneExtenderServesTlsWithClientCertificatesFromTheMountedSecret() {
    Layout standalone = standalone();
    Container c = standalone.extender();
    Map<String, String> env = env(c);
    Binder binder =
        new Binder(
            ConfigurationPropertySources.from(
                new SystemEnvironmentPropertySource(
                    StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME,
                    new HashMap<>(env))));
    Ssl ssl = binder.bind("server.ssl", Ssl.class).get();
    assertThat(ssl.getBundle()).isNotBlank();
    assertThat(ssl.getClientAuth())
        .as("client certificates required")
        .isEqualTo(Ssl.ClientAuth.NEED);
    assertThat(env)
        .as("no address: client-auth=need opens every interface")
        .doesNotContainKey("SERVER_ADDRESS");
    PemSslBundleProperties bundle =
        binder
            .bind("spring.ssl", SslProperties.class)
            .get()
            .getBundle()
            .getPem()
            .get(ssl.getBundle());
    assertThat(bundle).as("the PEM bundle named by server.ssl.bundle").isNotNull();
    VolumeMount tls =
        c.getVolumeMounts().stream()
            .filter(m -> m.getMountPath().contains("tls"))
            .findFirst()
            .orElseThrow();
    assertThat(volume(standalone.deployment(), tls.getName()).getSecret().getSecretName())
        .isEqualTo("scheduler-extender-tls");
    assertThat(bundle.getKeystore().getCertificate())
        .isEqualTo("file:" + tls.getMountPath() + "/tls.crt");
    assertThat(bundle.getKeystore().getPrivateKey())
        .isEqualTo("file:" + tls.getMountPath() + "/tls.key");
    assertThat(bundle.getTruststore().getCertificate())
        .isEqualTo("file:" + tls.getMountPath() + "/ca.crt");
    assertThat(binder.bind("management.server.ssl.enabled", Boolean.class).get())
        .as("probes and Prometheus hold no client certificate")
        .isFalse();
  }

  @Test
  void theStandaloneKubeSchedulerSnippetUsesHttpsWithAClientCertificateAndTheServicesName() {
    Layout standalone = standalone();
    JsonNode e = standalone.extenderEntry();
    Service svc = standalone.one(Service.class);
    Deployment d = standalone.deployment();
    assertThat(d.getSpec().getTemplate().getMetadata().getLabels())
        .containsAllEntriesOf(svc.getSpec().getSelector());
    URI url = URI.create(e.path("urlPrefix").asText());
    assertThat(url.getScheme()).isEqualTo("https");
    assertThat(e.path("enableHTTPS").asBoolean()).isTrue();
    var servicePort =
        svc.getSpec().getPorts().stream()
            .filter(p -> p.getPort() == url.getPort())
            .findFirst()
            .orElseThrow(() -> new AssertionError("the Service has no port " + url.getPort()));
    Container c = standalone.extender();
    assertThat(portNumber(c, servicePort.getTargetPort()))
        .isEqualTo(Integer.parseInt(env(c).get("SERVER_PORT")));
    JsonNode tls = e.path("tlsConfig");
    assertThat(tls.path("insecure").asBoolean(false)).isFalse();
    assertThat(tls.path("serverName").asText())
        .isEqualTo(svc.getMetadata().getName() + "." + svc.getMetadata().getNamespace() + ".svc");
    for (String field : List.of("certFile", "keyFile", "caFile")) {
      assertThat(tls.path(field).asText()).as("tlsConfig." + field).startsWith("/");
    }
  }

  // ---------------------------------------------------------------------------------------------
  // helpers

  private static JsonNode readYaml(String text) {
    try {
      return YAML.readTree(text);
    } catch (IOException e) {
      throw new AssertionError(e);
    }
  }

  static Container container(Deployment d, String name) {
    return d.getSpec().getTemplate().getSpec().getContainers().stream()
        .filter(c -> c.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no container " + name));
  }

  private static Volume volume(Deployment d, String name) {
    return d.getSpec().getTemplate().getSpec().getVolumes().stream()
        .filter(v -> v.getName().equals(name))
        .findFirst()
        .orElseThrow(() -> new AssertionError("no volume " + name));
  }

  private static Map<String, String> env(Container c) {
    Map<String, String> out = new HashMap<>();
    for (EnvVar e : c.getEnv()) {
      out.put(e.getName(), e.getValue());
    }
    return out;
  }

  /** The container port a probe or Service port names, by number or by name. */
  private static int portNumber(Container c, IntOrString port) {
    if (port.getIntVal() != null) {
      return port.getIntVal();
    }
    return c.getPorts().stream()
        .filter(p -> port.getStrVal().equals(p.getName()))
        .map(ContainerPort::getContainerPort)
        .findFirst()
        .orElseThrow(
            () -> new AssertionError(c.getName() + " has no port named " + port.getStrVal()));
  }
}
