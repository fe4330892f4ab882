package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.client.KubernetesClient;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class KubernetesClientsTest {

  @Test
  void aClientFromAKubeconfigDecodesWatchEventsInOnePass(@TempDir Path dir) throws Exception {
    Path kubeconfig = dir.resolve("config");
    Files.writeString(
        kubeconfig,
        String.join(
            "\n",
            "apiVersion: v1",
            "kind: Config",
            "clusters:",
            "- name: c",
            "  cluster: {server: 'http://127.0.0.1:1'}",
            "contexts:",
            "- name: c",
            "  context: {cluster: c, user: u}",
            "current-context: c",
            "users:",
            "- name: u",
            "  user: {token: t}",
            ""));

    try (KubernetesClient client =
        KubernetesClients.create(kubeconfig.toString(), new EventThreads())) {
      assertThat(client.getMasterUrl().toString()).startsWith("http://127.0.0.1:1");
      assertThat(client.getKubernetesSerialization()).isInstanceOf(WatchEventSerialization.class);
    }
  }

  @Test
  void anUnreadableKubeconfigIsNamedInTheError(@TempDir Path dir) {
    String missing = dir.resolve("missing").toString();

    assertThatThrownBy(() -> KubernetesClients.create(missing, new EventThreads()))
        .isInstanceOf(ClusterSourceException.class)
        .hasMessageContaining(missing);
  }
}
