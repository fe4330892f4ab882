package io.schedext.plugins.volumebinding;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeBuilder;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaim;
import io.fabric8.kubernetes.api.model.PersistentVolumeClaimBuilder;
import io.schedext.cluster.ObjectStore;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The assume cache contract of upstream's assume_cache_test.go, on the PV and PVC caches, fed by
 * events or lazily from the object store.
 */
class AssumeCacheTest {

  static PersistentVolume pv(String name, String version, String className) {
    return new PersistentVolumeBuilder()
        .withNewMetadata()
        .withName(name)
        .withResourceVersion(version)
        .endMetadata()
        .withNewSpec()
        .withStorageClassName(className)
        .endSpec()
        .build();
  }

  static PersistentVolumeClaim pvc(String ns, String name, String version) {
    return new PersistentVolumeClaimBuilder()
        .withNewMetadata()
        .withNamespace(ns)
        .withName(name)
        .withResourceVersion(version)
        .endMetadata()
        .build();
  }

  @Test
  void informerEventsReplaceOnlyWithNewerVersions() {
    VolumeAssumeCaches caches = new VolumeAssumeCaches();
    PersistentVolume v5 = pv("pv", "5", "sc");
    caches.pvs().add(v5);
    caches.pvs().add(pv("pv", "4", "sc"));
    caches.pvs().add(pv("pv", "5", "other"));
    assertThat(caches.pvs().get("pv")).isSameAs(v5);
    PersistentVolume v6 = pv("pv", "6", "sc");
    caches.pvs().add(v6);
    assertThat(caches.pvs().get("pv")).isSameAs(v6);
    assertThat(caches.pvs().getApiObject("pv")).isSameAs(v6);
  }

  @Test
  void assumeReplacesTheLatestVersionOnlyAndRestoreUndoesIt() {
    VolumeAssumeCaches caches = new VolumeAssumeCaches();
    PersistentVolume api = pv("pv", "1", "sc");
    caches.pvs().add(api);
    PersistentVolume assumed = pv("pv", "1", "sc");
    caches.pvs().assume(assumed);
    assertThat(caches.pvs().get("pv")).isSameAs(assumed);
    assertThat(caches.volume("pv")).isSameAs(assumed);
    assertThat(caches.pvs().getApiObject("pv")).isSameAs(api);
    caches.pvs().restore("pv");
    assertThat(caches.pvs().get("pv")).isSameAs(api);
    caches.pvs().restore("unknown");
  }

  @Test
  void anAssumptionSurvivesAResyncOfTheSameVersionButNotANewerOne() {
    VolumeAssumeCaches caches = new VolumeAssumeCaches();
    caches.pvs().add(pv("pv", "1", "sc"));
    PersistentVolume assumed = pv("pv", "2", "sc");
    caches.pvs().assume(assumed);
    caches.pvs().add(pv("pv", "2", "sc"));
    assertThat(caches.pvs().get("pv")).isSameAs(assumed);
    PersistentVolume newer = pv("pv", "3", "sc");
    caches.pvs().add(newer);
    assertThat(caches.pvs().get("pv")).isSameAs(newer);
    assertThat(caches.pvs().getApiObject("pv")).isSameAs(newer);
  }

  @Test
  void assumingAnOlderVersionIsOutOfSync() {
    VolumeAssumeCaches caches = new VolumeAssumeCaches();
    caches.pvcs().add(pvc("ns", "c", "2"));
    assertThatThrownBy(() -> caches.pvcs().assume(pvc("ns", "c", "1")))
        .isInstanceOf(AssumeCacheException.class)
        .hasMessage("v1.PersistentVolumeClaim \"ns/c\" is out of sync (stored: 2, assume: 1)");
  }

  @Test
  void assumingAnUnknownObjectIsNotFound() {
    VolumeAssumeCaches caches = new VolumeAssumeCaches();
    assertThatThrownBy(() -> caches.pvs().assume(pv("pv", "1", "sc")))
        .isInstanceOf(AssumeCacheException.class)
        .hasMessage("could not find v1.PersistentVolume \"pv\"")
        .matches(e -> ((AssumeCacheException) e).isNotFound());
    assertThat(caches.volume("pv")).isNull();
    assertThat(caches.claim("ns", "c")).isNull();
  }

  @Test
  void aMalformedResourceVersionIsAnError() {
    VolumeAssumeCaches caches = new VolumeAssumeCaches();
    caches.pvs().add(pv("pv", "1", "sc"));
    assertThatThrownBy(() -> caches.pvs().assume(pv("pv", "x", "sc")))
        .isInstanceOf(AssumeCacheException.class)
        .hasMessage(
            "error parsing ResourceVersion \"x\" for v1.PersistentVolume \"pv\": "
                + "strconv.ParseInt: parsing \"x\": invalid syntax");
  }

  @Test
  void deleteForgetsAnAssumedObject() {
    VolumeAssumeCaches caches = new VolumeAssumeCaches();
    caches.pvcs().add(pvc("ns", "c", "1"));
    caches.pvcs().assume(pvc("ns", "c", "1"));
    caches.pvcs().delete(pvc("ns", "c", "1"));
    assertThat(caches.claim("ns", "c")).isNull();
  }

  @Test
  void volumesAreListedByTheClassOfTheirLatestVersion() {
    VolumeAssumeCaches caches = new VolumeAssumeCaches();
    PersistentVolume a = pv("a", "1", "sc");
    PersistentVolume b = pv("b", "1", "sc");
    caches.pvs().add(b);
    caches.pvs().add(a);
    caches.pvs().add(pv("c", "1", "other"));
    assertThat(caches.volumesOfClass("sc")).containsExactly(a, b);
    PersistentVolume moved = pv("a", "1", "other");
    caches.pvs().assume(moved);
    assertThat(caches.volumesOfClass("sc")).containsExactly(b);
    assertThat(caches.volumesOfClass("other"))
        .extracting(v -> v.getMetadata().getName())
        .containsExactly("a", "c");
    assertThat(caches.pvcs().list("anything")).isEqualTo(List.of());
  }

  @Test
  void aLazyCacheTakesInNewerSourceVersionsOnReadAndKeepsAssumptionsOverEqualOnes() {
    ObjectStore store = new ObjectStore();
    store.put(pv("pv", "1", "sc"));
    VolumeAssumeCaches caches = new VolumeAssumeCaches(store);
    PersistentVolume assumed = pv("pv", "1", "sc");
    caches.pvs().assume(assumed);
    store.put(pv("pv", "1", "sc"));
    assertThat(caches.volume("pv")).isSameAs(assumed);

    PersistentVolume newer = pv("pv", "2", "sc");
    store.put(newer);
    assertThat(caches.volume("pv")).isSameAs(newer);
    assertThat(caches.pvs().getApiObject("pv")).isSameAs(newer);
  }

  @Test
  void aLazyCacheForgetsWhatTheSourceNoLongerHas() {
    ObjectStore store = new ObjectStore();
    PersistentVolume a = pv("a", "1", "sc");
    PersistentVolume b = pv("b", "1", "sc");
    store.put(a);
    store.put(b);
    store.put(pvc("ns", "c", "1"));
    VolumeAssumeCaches caches = new VolumeAssumeCaches(store);
    caches.pvs().assume(pv("a", "1", "sc"));
    assertThat(caches.volumesOfClass("sc")).hasSize(2);
    assertThat(caches.claim("ns", "c")).isNotNull();

    store.remove(a);
    store.remove(pvc("ns", "c", "1"));
    assertThat(caches.volumesOfClass("sc")).containsExactly(b);
    assertThat(caches.claim("ns", "c")).isNull();
    assertThatThrownBy(() -> caches.pvs().assume(pv("a", "1", "sc")))
        .isInstanceOf(AssumeCacheException.class)
        .hasMessage("could not find v1.PersistentVolume \"a\"");
  }

  @Test
  void aLazyCacheThatCannotListSweepsDroppedKeysNowAndThen() {
    Map<String, PersistentVolumeClaim> source = new HashMap<>();
    AssumeCache<PersistentVolumeClaim> cache =
        new AssumeCache<>(
            "v1.PersistentVolumeClaim",
            null,
            new AssumeCache.Source<>() {
              @Override
              public PersistentVolumeClaim get(String key) {
                return source.get(key);
              }

              @Override
              public Collection<PersistentVolumeClaim> list() {
                return null;
              }
            });
    source.put("ns/gone", pvc("ns", "gone", "1"));
    source.put("ns/kept", pvc("ns", "kept", "1"));
    cache.get("ns/gone");
    cache.get("ns/kept");
    source.remove("ns/gone");
    assertThat(cache.list("")).extracting(c -> c.getMetadata().getName()).containsExactly("kept");

    source.put("ns/gone", pvc("ns", "gone", "1"));
    cache.get("ns/gone");
    source.remove("ns/gone");
    for (int i = 0; i < AssumeCache.SWEEP_EVERY; i++) {
      cache.get("ns/kept");
    }
    source.put("ns/gone", pvc("ns", "gone", "0"));
    assertThat(cache.getApiObject("ns/gone").getMetadata().getResourceVersion()).isEqualTo("0");
  }
}
