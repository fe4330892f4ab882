package io.schedext.plugins.nodevolumelimits;

import io.fabric8.kubernetes.api.model.PersistentVolume;
import io.fabric8.kubernetes.api.model.PersistentVolumeSpec;
import io.fabric8.kubernetes.api.model.Volume;
import io.fabric8.kubernetes.api.model.storage.CSINode;
import java.net.URI;
import java.net.URISyntaxException;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.regex.Pattern;

/**
 * The in-tree volume plugins that csi-translation-lib can migrate, and the CSI driver name and
 * volume handle their volumes translate to. Only the handle is derived (what attach-limit counting
 * needs); topology is not translated. Stateless and thread-safe.
 */
final class InTreeVolumes {

  /** A migratable in-tree plugin. */
  enum Plugin {
    AWS_EBS("kubernetes.io/aws-ebs", "ebs.csi.aws.com", true),
    GCE_PD("kubernetes.io/gce-pd", "pd.csi.storage.gke.io", true),
    AZURE_DISK("kubernetes.io/azure-disk", "disk.csi.azure.com", true),
    AZURE_FILE("kubernetes.io/azure-file", "file.csi.azure.com", false),
    VSPHERE("kubernetes.io/vsphere-volume", "csi.vsphere.vmware.com", false),
    CINDER("kubernetes.io/cinder", "cinder.csi.openstack.org", true),
    PORTWORX("kubernetes.io/portworx-volume", "pxd.portworx.com", true);

    private final String inTreeName;
    private final String csiDriver;
    private final boolean countedByScheduler;

    Plugin(String inTreeName, String csiDriver, boolean countedByScheduler) {
      this.inTreeName = inTreeName;
      this.csiDriver = csiDriver;
      this.countedByScheduler = countedByScheduler;
    }

    /** The CSI driver this plugin migrates to. */
    String csiDriver() {
      return csiDriver;
    }
  }

  private static final String UNSPECIFIED = "UNSPECIFIED";
  private static final String BETA_ZONE = "failure-domain.beta.kubernetes.io/zone";
  private static final String ZONE = "topology.kubernetes.io/zone";
  private static final Pattern AWS_VOLUME_ID = Pattern.compile("^vol-[^/]*$");

  private InTreeVolumes() {}

  /** The plugin of an in-tree PV source, or null for CSI and non-migratable sources. */
  static Plugin ofVolume(PersistentVolume pv) {
    PersistentVolumeSpec s = pv.getSpec();
    if (s == null) {
      return null;
    }
    if (s.getAwsElasticBlockStore() != null) {
      return Plugin.AWS_EBS;
    } else if (s.getGcePersistentDisk() != null) {
      return Plugin.GCE_PD;
    } else if (s.getAzureDisk() != null) {
      return Plugin.AZURE_DISK;
    } else if (s.getAzureFile() != null) {
      return Plugin.AZURE_FILE;
    } else if (s.getVsphereVolume() != null) {
      return Plugin.VSPHERE;
    } else if (s.getCinder() != null) {
      return Plugin.CINDER;
    } else if (s.getPortworxVolume() != null) {
      return Plugin.PORTWORX;
    }
    return null;
  }

  /** The plugin of an inline pod volume, or null when it is not migratable. */
  static Plugin ofInline(Volume v) {
    if (v.getAwsElasticBlockStore() != null) {
      return Plugin.AWS_EBS;
    } else if (v.getGcePersistentDisk() != null) {
      return Plugin.GCE_PD;
    } else if (v.getAzureDisk() != null) {
      return Plugin.AZURE_DISK;
    } else if (v.getAzureFile() != null) {
      return Plugin.AZURE_FILE;
    } else if (v.getVsphereVolume() != null) {
      return Plugin.VSPHERE;
    } else if (v.getCinder() != null) {
      return Plugin.CINDER;
    } else if (v.getPortworxVolume() != null) {
      return Plugin.PORTWORX;
    }
    return null;
  }

  /** The plugin with this in-tree (provisioner) name, or null. */
  static Plugin byName(String inTreeName) {
    for (Plugin p : Plugin.values()) {
      if (p.inTreeName.equals(inTreeName)) {
        return p;
      }
    }
    return null;
  }

  /**
   * Whether the scheduler counts this plugin's volumes under its CSI driver on a node: current
   * upstream only needs a CSINode object and one of the GA-migrated plugins (the migrated-plugins
   * annotation is no longer consulted).
   */
  static boolean migrationOn(CSINode csiNode, Plugin p) {
    return csiNode != null && p != null && p.countedByScheduler;
  }

  /**
   * The CSI volume handle of an in-tree PV; throws {@link IllegalArgumentException} when it cannot
   * translate.
   */
  static String handle(PersistentVolume pv, Plugin p) {
    PersistentVolumeSpec s = pv.getSpec();
    return switch (p) {
      case AWS_EBS -> ebsVolumeId(str(s.getAwsElasticBlockStore().getVolumeID()));
      case GCE_PD -> gcePvHandle(pv, str(s.getGcePersistentDisk().getPdName()));
      case AZURE_DISK -> str(s.getAzureDisk().getDiskURI());
      case CINDER -> str(s.getCinder().getVolumeID());
      case PORTWORX -> str(s.getPortworxVolume().getVolumeID());
      default -> throw new IllegalArgumentException("no handle translation for " + p.inTreeName);
    };
  }

  /**
   * The CSI volume handle of an inline volume; throws {@link IllegalArgumentException} when it
   * cannot translate.
   */
  static String inlineHandle(Volume v, Plugin p) {
    return switch (p) {
      case AWS_EBS -> inlineEbsVolumeId(str(v.getAwsElasticBlockStore().getVolumeID()));
      case GCE_PD ->
          "projects/"
              + UNSPECIFIED
              + "/zones/"
              + UNSPECIFIED
              + "/disks/"
              + str(v.getGcePersistentDisk().getPdName());
      case AZURE_DISK -> str(v.getAzureDisk().getDiskURI());
      case CINDER -> str(v.getCinder().getVolumeID());
      case PORTWORX -> str(v.getPortworxVolume().getVolumeID());
      default -> throw new IllegalArgumentException("no handle translation for " + p.inTreeName);
    };
  }

  private static String inlineEbsVolumeId(String kubernetesId) {
    try {
      return ebsVolumeId(kubernetesId);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "failed to translate Kubernetes ID to EBS Volume ID " + e.getMessage(), e);
    }
  }

  /** {@code aws://<zone>/<vol-id>} and bare ids to the EBS volume id, as csi-translation-lib. */
  static String ebsVolumeId(String kubernetesId) {
    if (!kubernetesId.startsWith("aws://")) {
      return kubernetesId;
    }
    String path;
    try {
      path = new URI(kubernetesId).getPath();
    } catch (URISyntaxException e) {
      throw new IllegalArgumentException(
          "Invalid disk name (" + kubernetesId + "): " + e.getMessage(), e);
    }
    String id = trimSlashes(path == null ? "" : path);
    if (!AWS_VOLUME_ID.matcher(id).matches()) {
      throw new IllegalArgumentException("Invalid format for AWS volume (" + kubernetesId + ")");
    }
    return id;
  }

  /**
   * Zonal, regional or unspecified-zone handle from the PV's zone labels, as csi-translation-lib's
   * GCE PD plugin.
   */
  private static String gcePvHandle(PersistentVolume pv, String pdName) {
    Map<String, String> labels = pv.getMetadata() == null ? null : pv.getMetadata().getLabels();
    String beta = labels == null ? "" : str(labels.get(BETA_ZONE));
    String ga = labels == null ? "" : str(labels.get(ZONE));
    if (!beta.isEmpty() && !ga.isEmpty() && !beta.equals(ga)) {
      throw new IllegalArgumentException(
          "PV has both topology and beta zone labels with different values");
    }
    String zonesLabel = beta.isEmpty() ? ga : beta;
    String[] zones = zonesLabel.split("__", -1);
    if (zones.length == 1 && !zones[0].isEmpty()) {
      return "projects/" + UNSPECIFIED + "/zones/" + zones[0] + "/disks/" + pdName;
    }
    if (zones.length > 1) {
      return "projects/" + UNSPECIFIED + "/regions/" + regionOf(zones) + "/disks/" + pdName;
    }
    return "projects/" + UNSPECIFIED + "/zones/" + UNSPECIFIED + "/disks/" + pdName;
  }

  private static String regionOf(String[] zones) {
    Set<String> regions = new HashSet<>();
    for (String zone : zones) {
      String[] parts = zone.split("-", -1);
      if (parts.length != 3) {
        throw new IllegalArgumentException(
            "zone in unexpected format, expected: {locale}-{region}-{zone}, got: " + zone);
      }
      regions.add(parts[0] + "-" + parts[1]);
    }
    if (regions.size() != 1) {
      throw new IllegalArgumentException(
          "multiple or no regions gotten from zones, got: " + regions);
    }
    return regions.iterator().next();
  }

  private static String trimSlashes(String s) {
    int b = 0;
    int e = s.length();
    while (b < e && s.charAt(b) == '/') {
      b++;
    }
    while (e > b && s.charAt(e - 1) == '/') {
      e--;
    }
    return s.substring(b, e);
  }

  private static String str(String s) {
    return s == null ? "" : s;
  }
}
