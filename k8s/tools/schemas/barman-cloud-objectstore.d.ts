// The Barman Cloud plugin's ObjectStore (barmancloud.cnpg.io/v1): where a CloudNativePG cluster's
// WAL archive and base backups go. Written from the plugin's API reference (its ObjectStoreSpec
// and barman-cloud's BarmanObjectStoreConfiguration) for lib/dts-schema.js to walk. S3 is spelt
// out; the Azure and Google credentials pass unchecked (`any`). serverName is left out on
// purpose: the plugin refuses it here (it is a parameter of the Cluster's plugin entry).
import { IObjectMeta } from "@kubernetes-models/apimachinery/apis/meta/v1/ObjectMeta";
import { IEnvVar } from "kubernetes-models/v1/EnvVar";
import { IResourceRequirements } from "kubernetes-models/v1/ResourceRequirements";

export interface IObjectStore {
    "apiVersion": "barmancloud.cnpg.io/v1";
    "kind": "ObjectStore";
    "metadata"?: IObjectMeta;
    "spec": IObjectStoreSpec;
}

export interface IObjectStoreSpec {
    "configuration": IBarmanObjectStoreConfiguration;
    // XXu, u one of d, w, m (days, weeks, months): "30d".
    "retentionPolicy"?: string;
    "instanceSidecarConfiguration"?: {
        "env"?: Array<IEnvVar>;
        "retentionPolicyIntervalSeconds"?: number;
        "resources"?: IResourceRequirements;
    };
}

export interface ISecretKeySelector {
    "name": string;
    "key": string;
}

export type ICompression = "bzip2" | "gzip" | "lz4" | "snappy" | "xz" | "zstd";
export type IEncryption = "AES256" | "aws:kms";

export interface IBarmanObjectStoreConfiguration {
    "destinationPath": string;
    "endpointURL"?: string;
    "endpointCA"?: ISecretKeySelector;
    "s3Credentials"?: {
        "accessKeyId"?: ISecretKeySelector;
        "secretAccessKey"?: ISecretKeySelector;
        "region"?: ISecretKeySelector;
        "sessionToken"?: ISecretKeySelector;
        "inheritFromIAMRole"?: boolean;
    };
    "azureCredentials"?: any;
    "googleCredentials"?: any;
    "wal"?: {
        "compression"?: ICompression;
        "encryption"?: IEncryption;
        "maxParallel"?: number;
        "archiveAdditionalCommandArgs"?: Array<string>;
        "restoreAdditionalCommandArgs"?: Array<string>;
    };
    "data"?: {
        "compression"?: ICompression;
        "encryption"?: IEncryption;
        "jobs"?: number;
        "immediateCheckpoint"?: boolean;
        "additionalCommandArgs"?: Array<string>;
        "restoreAdditionalCommandArgs"?: Array<string>;
    };
    "tags"?: { [key: string]: string; };
    "historyTags"?: { [key: string]: string; };
}
