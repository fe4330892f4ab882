package io.schedext.cluster;

import static org.assertj.core.api.Assertions.assertThat;

import io.fabric8.kubernetes.api.model.Namespace;
import io.fabric8.kubernetes.api.model.NamespaceBuilder;
import io.fabric8.kubernetes.api.model.Service;
import io.fabric8.kubernetes.api.model.ServiceBuilder;
import io.fabric8.kubernetes.api.model.apps.ReplicaSetBuilder;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachment;
import io.fabric8.kubernetes.api.model.storage.VolumeAttachmentBuilder;
import java.util.List;
import org.junit.jupiter.api.Test;

class ObjectStoreTest {

  private static Service service(String namespace, String name, String app) {
    return new ServiceBuilder()
        .withNewMetadata()
        .withNamespace(namespace)
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .addToSelector("app", app)
        .endSpec()
        .build();
  }

  private static List<String> names(List<? extends io.fabric8.kubernetes.api.model.HasMetadata> l) {
    return l.stream().map(o -> o.getMetadata().getName()).sorted().toList();
  }

  @Test
  void listsOnlyTheObjectsOfTheAskedNamespaceAndKind() {
    ObjectStore store = new ObjectStore();
    store.put(service("a", "web", "web"));
    store.put(service("a", "db", "db"));
    store.put(service("b", "web", "web"));
    store.put(
        new ReplicaSetBuilder()
            .withNewMetadata()
            .withNamespace("a")
            .withName("web-1")
            .endMetadata()
            .build());

    assertThat(names(store.services("a"))).containsExactly("db", "web");
    assertThat(names(store.services("b"))).containsExactly("web");
    assertThat(store.services("c")).isEmpty();
    assertThat(names(store.replicaSets("a"))).containsExactly("web-1");
    assertThat(store.replicaSets("b")).isEmpty();
    assertThat(store.list(Service.class)).hasSize(3);
  }

  private static VolumeAttachment attachment(String name, String node) {
    return new VolumeAttachmentBuilder()
        .withNewMetadata()
        .withName(name)
        .endMetadata()
        .withNewSpec()
        .withNodeName(node)
        .withAttacher("ebs.csi.aws.com")
        .endSpec()
        .build();
  }

  @Test
  void volumeAttachmentsAreFoundByTheirNodeThroughPutsRemovesAndClears() {
    ObjectStore store = new ObjectStore();
    store.put(attachment("va-1", "n1"));
    store.put(attachment("va-2", "n1"));
    store.put(attachment("va-3", "n2"));
    assertThat(names(store.volumeAttachments("n1"))).containsExactly("va-1", "va-2");

    store.put(attachment("va-2", "n2"));
    assertThat(names(store.volumeAttachments("n1"))).as("moved").containsExactly("va-1");
    assertThat(names(store.volumeAttachments("n2"))).containsExactly("va-2", "va-3");

    store.remove(attachment("va-1", "n1"));
    assertThat(store.volumeAttachments("n1")).isEmpty();
    assertThat(store.volumeAttachments("n3")).isEmpty();

    store.clear(VolumeAttachment.class);
    assertThat(store.volumeAttachments("n2")).isEmpty();
  }

  @Test
  void aReplacedObjectIsListedOnceWithItsNewContent() {
    ObjectStore store = new ObjectStore();
    store.put(service("a", "web", "old"));
    store.put(service("a", "web", "new"));

    assertThat(store.services("a"))
        .singleElement()
        .satisfies(s -> assertThat(s.getSpec().getSelector()).containsEntry("app", "new"));
    assertThat(store.count(Service.class)).isEqualTo(1);
  }

  @Test
  void removedAndClearedObjectsAreNoLongerListed() {
    ObjectStore store = new ObjectStore();
    Service web = service("a", "web", "web");
    store.put(web);
    store.put(service("a", "db", "db"));
    store.put(service("b", "web", "web"));

    assertThat(store.remove(web)).isTrue();
    assertThat(store.remove(web)).isFalse();
    assertThat(names(store.services("a"))).containsExactly("db");

    store.clear(Service.class);
    assertThat(store.services("a")).isEmpty();
    assertThat(store.services("b")).isEmpty();
    assertThat(store.count(Service.class)).isZero();

    store.put(service("a", "web", "web"));
    assertThat(names(store.services("a"))).containsExactly("web");
  }

  @Test
  void clusterScopedObjectsAreInTheEmptyNamespace() {
    ObjectStore store = new ObjectStore();
    Namespace ns =
        new NamespaceBuilder().withNewMetadata().withName("team-a").endMetadata().build();
    store.put(ns);

    assertThat(store.list(Namespace.class, "")).containsExactly(ns);
    assertThat(store.namespace("team-a")).isSameAs(ns);
    assertThat(store.list(Namespace.class, "team-a")).isEmpty();
  }
}
