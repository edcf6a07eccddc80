// CloudNativePG's Cluster (postgresql.cnpg.io/v1): the fields of its spec that kahve uses or is
// likely to, written from the operator's API reference for lib/dts-schema.js to walk. No npm
// package ships its schema, so this is a subset: a field outside it fails the check until it is
// added here (check it against the API reference of the operator version you run). Parts typed
// `any` are passed through unchecked.
import { IObjectMeta } from "@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta";
import { IResourceRequirements } from "kubernetes-models/v1/ResourceRequirements";
import { IPersistentVolumeClaimSpec } from "kubernetes-models/v1/PersistentVolumeClaimSpec";
import { INodeAffinity } from "kubernetes-models/v1/NodeAffinity";
import { IPodAffinity } from "kubernetes-models/v1/PodAffinity";
import { IPodAntiAffinity } from "kubernetes-models/v1/PodAntiAffinity";
import { IToleration } from "kubernetes-models/v1/Toleration";
import { ITopologySpreadConstraint } from "kubernetes-models/v1/TopologySpreadConstraint";
import { IEnvVar } from "kubernetes-models/v1/EnvVar";
import { IEnvFromSource } from "kubernetes-models/v1/EnvFromSource";
import { ISeccompProfile } from "kubernetes-models/v1/SeccompProfile";

export interface ICluster {
    "apiVersion": "postgresql.cnpg.io/v1";
    "kind": "Cluster";
    "metadata"?: IObjectMeta;
    "spec": IClusterSpec;
}

export interface ILocalObjectReference {
    "name": string;
}

export interface IStorageConfiguration {
    "storageClass"?: string;
    "size"?: string;
    "resizeInUseVolumes"?: boolean;
    "pvcTemplate"?: IPersistentVolumeClaimSpec;
}

export interface IClusterSpec {
    "description"?: string;
    "inheritedMetadata"?: {
        "labels"?: { [key: string]: string; };
        "annotations"?: { [key: string]: string; };
    };
    "imageName"?: string;
    "imagePullPolicy"?: "Always" | "Never" | "IfNotPresent";
    "imagePullSecrets"?: Array<ILocalObjectReference>;
    "instances": number;
    "minSyncReplicas"?: number;
    "maxSyncReplicas"?: number;
    "postgresql"?: {
        "parameters"?: { [key: string]: string; };
        "pg_hba"?: Array<string>;
        "pg_ident"?: Array<string>;
        "shared_preload_libraries"?: Array<string>;
        "synchronous"?: any;
        "promotionTimeout"?: number;
        "enableAlterSystem"?: boolean;
    };
    "replicationSlots"?: {
        "highAvailability"?: {
            "enabled"?: boolean;
            "slotPrefix"?: string;
        };
        "updateInterval"?: number;
    };
    "bootstrap"?: {
        "initdb"?: {
            "database"?: string;
            "owner"?: string;
            "secret"?: ILocalObjectReference;
            "dataChecksums"?: boolean;
            "encoding"?: string;
            "localeCollate"?: string;
            "localeCType"?: string;
            "walSegmentSize"?: number;
            "options"?: Array<string>;
            "postInitSQL"?: Array<string>;
            "postInitApplicationSQL"?: Array<string>;
            "postInitTemplateSQL"?: Array<string>;
        };
        "recovery"?: any;
        "pg_basebackup"?: any;
    };
    "superuserSecret"?: ILocalObjectReference;
    "enableSuperuserAccess"?: boolean;
    "storage"?: IStorageConfiguration;
    "walStorage"?: IStorageConfiguration;
    "maxStartDelay"?: number;
    "maxStopDelay"?: number;
    "smartShutdownTimeout"?: number;
    "maxSwitchoverDelay"?: number;
    "failoverDelay"?: number;
    "affinity"?: {
        "enablePodAntiAffinity"?: boolean;
        "topologyKey"?: string;
        "nodeSelector"?: { [key: string]: string; };
        "nodeAffinity"?: INodeAffinity;
        "tolerations"?: Array<IToleration>;
        "podAntiAffinityType"?: "preferred" | "required";
        "additionalPodAntiAffinity"?: IPodAntiAffinity;
        "additionalPodAffinity"?: IPodAffinity;
    };
    "topologySpreadConstraints"?: Array<ITopologySpreadConstraint>;
    "resources"?: IResourceRequirements;
    "priorityClassName"?: string;
    "primaryUpdateStrategy"?: "unsupervised" | "supervised";
    "primaryUpdateMethod"?: "switchover" | "restart";
    "backup"?: any;
    "nodeMaintenanceWindow"?: {
        "inProgress"?: boolean;
        "reusePVC"?: boolean;
    };
    "monitoring"?: {
        "disableDefaultQueries"?: boolean;
        "customQueriesConfigMap"?: Array<{ "name": string; "key": string; }>;
        "customQueriesSecret"?: Array<{ "name": string; "key": string; }>;
        "enablePodMonitor"?: boolean;
        "tls"?: { "enabled"?: boolean; };
    };
    "externalClusters"?: any;
    "replica"?: any;
    "certificates"?: any;
    "managed"?: any;
    "logLevel"?: "error" | "warning" | "info" | "debug" | "trace";
    "env"?: Array<IEnvVar>;
    "envFrom"?: Array<IEnvFromSource>;
    "seccompProfile"?: ISeccompProfile;
    "enablePDB"?: boolean;
    "plugins"?: Array<IPluginConfiguration>;
}

// A CNPG-I plugin the cluster loads; the Barman Cloud plugin (barman-cloud.cloudnative-pg.io)
// archives the WAL when isWALArchiver is set (at most one plugin may be), to the ObjectStore
// named by its barmanObjectName parameter.
export interface IPluginConfiguration {
    "name": string;
    "enabled"?: boolean;
    "isWALArchiver"?: boolean;
    "parameters"?: { [key: string]: string; };
}
