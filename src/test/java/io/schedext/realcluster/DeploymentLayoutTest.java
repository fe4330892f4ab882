package io.schedext.realcluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import com.fasterxml.jackson.dataformat.yaml.YAMLFactory;
import io.fabric8.kubernetes.api.model.HasMetadata;
import io.schedext.testing.Http;
import io.schedext.testing.realcluster.ControlPlane;
import io.schedext.testing.realcluster.ControlPlane.AuditedRequest;
import io.schedext.testing.realcluster.KubeScheduler;
import io.schedext.testing.realcluster.RealCluster;
import io.schedext.testing.realcluster.RealClusterExtension;
import io.schedext.testing.realcluster.RealClusterTest;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.test.annotation.DirtiesContext;
import org.springframework.test.context.DynamicPropertyRegistry;
import org.springframework.test.context.DynamicPropertySource;

/**
 * The sidecar layout of {@code deployment/base} as shipped: kube-scheduler runs with the
 * ConfigMap's own KubeSchedulerConfiguration (a second scheduler, leader election on its lease, the
 * extender binding) and both processes run as the ServiceAccount the manifests bind — only the
 * extender's address and the kubeconfig (in the cluster, the pod's own token) are filled in. A pod
 * asking for that scheduler is bound through the extender, and the API server refused neither
 * process anything.
 */
@RealCluster
@SpringBootTest(webEnvironment = SpringBootTest.WebEnvironment.RANDOM_PORT)
@DirtiesContext(classMode = DirtiesContext.ClassMode.AFTER_CLASS)
class DeploymentLayoutTest {

  static final ObjectMapper YAML = new ObjectMapper(new YAMLFactory());
  static final String ACCOUNT =
      ControlPlane.serviceAccountUser(Workloads.EXTENDER_NAMESPACE, Workloads.EXTENDER_ACCOUNT);

  @Value("${local.server.port}")
  int port;

  @DynamicPropertySource
  static void properties(DynamicPropertyRegistry registry) {
    Workloads.watchAsDeployed(RealClusterExtension.get(), registry);
  }

  @RealClusterTest
  void theShippedSchedulerConfigurationSchedulesThroughTheExtenderAndNothingIsRefused()
      throws Exception {
    ControlPlane cp = RealClusterExtension.get();
    try (InputStream in =
        Files.newInputStream(Path.of("deployment/base/kube-scheduler-rbac.yaml"))) {
      for (HasMetadata o : cp.client().load(in).items()) {
        cp.client().resource(o).serverSideApply();
      }
    }
    Http http = new Http(port);
    await()
        .atMost(Duration.ofSeconds(60))
        .until(() -> http.get("/actuator/health/readiness").status() == 200);
    Workloads w = Workloads.scope(cp.client(), "layout");
    String node = w.node("n", "2");

    try (KubeScheduler ks = KubeScheduler.start(cp, shippedConfiguration(cp))) {
      w.create(w.pod("p", "500m").editSpec().withSchedulerName(schedulerName()).endSpec());
      await().atMost(Duration.ofSeconds(60)).until(() -> node.equals(w.nodeOf("p")));
    }

    List<AuditedRequest> requests = cp.audited(ACCOUNT);
    assertThat(requests)
        .as("the Binding came from the ServiceAccount (the extender's bindVerb)")
        .anyMatch(r -> r.subresource().equals("binding") && r.code() == 201);
    assertThat(requests)
        .as("kube-scheduler held its lease as that ServiceAccount")
        .anyMatch(r -> r.resource().equals("leases") && r.code() < 300);
    assertThat(requests)
        .as("requests the API server refused")
        .filteredOn(r -> r.code() == 401 || r.code() == 403)
        .isEmpty();
  }

  /**
   * The ConfigMap's configuration, pointed at this test's service and a kubeconfig of the
   * ServiceAccount.
   */
  private String shippedConfiguration(ControlPlane cp) throws Exception {
    ObjectNode config = (ObjectNode) YAML.readTree(configMapData());
    config
        .putObject("clientConnection")
        .put(
            "kubeconfig",
            cp.serviceAccountKubeconfig(Workloads.EXTENDER_NAMESPACE, Workloads.EXTENDER_ACCOUNT)
                .toString());
    ObjectNode extender = (ObjectNode) config.get("extenders").get(0);
    assertThat(extender.get("urlPrefix").asText()).isEqualTo("http://127.0.0.1:8888/scheduler");
    extender.put("urlPrefix", "http://127.0.0.1:" + port + "/scheduler");
    return YAML.writeValueAsString(config);
  }

  private static String schedulerName() throws Exception {
    return YAML.readTree(configMapData()).get("profiles").get(0).get("schedulerName").asText();
  }

  private static String configMapData() throws Exception {
    JsonNode map = YAML.readTree(Path.of("deployment/base/kube-scheduler-config.yaml").toFile());
    return map.get("data").get("config.yaml").asText();
  }
}
