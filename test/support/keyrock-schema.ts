import { createHmac } from 'node:crypto';

/**
 * Keyrock 8's tables as its migrations leave them (ging/fiware-idm migrations/: the user tables, and
 * CreateOAuthClientTable, CreateOauthTokenType, FixTokenTypesLength, CreateSignOutUrl,
 * IncreaseClientId, CreateRoleTable, CreatePermissionTable, CreatePermissionIsRegex,
 * CreatePermissionFiwareService, CreatePermissionUseFiwareService, CreatePermissionFiwarePayload,
 * CreateRoleAssignmentTable, CreateRolePermissionTable, CreateUserAuthorizedApplicationTable,
 * UpdateUserAuthorizedApplicationTable, CreateTrustedApplicationsTable, CreatePepProxyTable,
 * CreateIotTable), for the import tests and the import's speed check (scripts/import-speed.ts).
 */

/** Keyrock's user, organization and user_organization tables (columns as its migrations create them). */
export const USER_SCHEMA = `
CREATE TABLE user (
  id VARCHAR(36) PRIMARY KEY, username VARCHAR(64), description TEXT, website VARCHAR(2000),
  image VARCHAR(255) DEFAULT 'default', gravatar TINYINT(1) DEFAULT 0, email VARCHAR(255) UNIQUE,
  password VARCHAR(40), salt VARCHAR(255), date_password DATETIME, enabled TINYINT(1) DEFAULT 0,
  admin TINYINT(1) DEFAULT 0, extra JSON, scope VARCHAR(2000), starters_tour_ended TINYINT(1) DEFAULT 0,
  eidas_id VARCHAR(255)
);
CREATE TABLE organization (
  id VARCHAR(36) PRIMARY KEY, name VARCHAR(64), description TEXT, website VARCHAR(2000),
  image VARCHAR(255) DEFAULT 'default'
);
CREATE TABLE user_organization (
  id INT AUTO_INCREMENT PRIMARY KEY, role VARCHAR(10),
  user_id VARCHAR(36) REFERENCES user(id) ON DELETE CASCADE,
  organization_id VARCHAR(36) REFERENCES organization(id) ON DELETE CASCADE
);`;

/** Keyrock's application tables (the migrations listed above). */
export const APP_SCHEMA = `
CREATE TABLE oauth_client (
  id VARCHAR(255) PRIMARY KEY, name VARCHAR(255), description TEXT, secret CHAR(36),
  url VARCHAR(2000), redirect_uri VARCHAR(2000), image VARCHAR(255) DEFAULT 'default',
  grant_type VARCHAR(255), response_type VARCHAR(255), client_type VARCHAR(15), scope VARCHAR(80),
  extra JSON, token_types VARCHAR(2000) DEFAULT 'bearer', jwt_secret VARCHAR(2000),
  redirect_sign_out_uri VARCHAR(2000)
);
CREATE TABLE role (
  id VARCHAR(36) PRIMARY KEY, name VARCHAR(64), is_internal TINYINT(1) DEFAULT 0,
  oauth_client_id VARCHAR(255) REFERENCES oauth_client(id) ON DELETE CASCADE
);
CREATE TABLE permission (
  id VARCHAR(36) PRIMARY KEY, name VARCHAR(255), description TEXT, is_internal TINYINT(1) DEFAULT 0,
  action VARCHAR(255), resource VARCHAR(255), xml TEXT,
  oauth_client_id VARCHAR(255) REFERENCES oauth_client(id) ON DELETE CASCADE,
  is_regex TINYINT(1) NOT NULL DEFAULT 0, authorization_service_header VARCHAR(255),
  use_authorization_service_header TINYINT(1) NOT NULL DEFAULT 0,
  regex_entity_ids VARCHAR(255), regex_attributes VARCHAR(255), regex_types VARCHAR(255)
);
CREATE TABLE role_permission (
  id INT AUTO_INCREMENT PRIMARY KEY,
  role_id VARCHAR(36) REFERENCES role(id) ON DELETE CASCADE,
  permission_id VARCHAR(36) REFERENCES permission(id) ON DELETE CASCADE
);
CREATE TABLE role_assignment (
  id INT AUTO_INCREMENT PRIMARY KEY, role_organization VARCHAR(255),
  oauth_client_id VARCHAR(255) REFERENCES oauth_client(id) ON DELETE CASCADE,
  role_id VARCHAR(36) REFERENCES role(id) ON DELETE CASCADE,
  organization_id VARCHAR(36) REFERENCES organization(id) ON DELETE CASCADE,
  user_id VARCHAR(36) REFERENCES user(id) ON DELETE CASCADE
);
CREATE TABLE user_authorized_application (
  id INT AUTO_INCREMENT PRIMARY KEY,
  user_id VARCHAR(36) REFERENCES user(id) ON DELETE CASCADE,
  oauth_client_id VARCHAR(255) REFERENCES oauth_client(id) ON DELETE CASCADE,
  shared_attributes VARCHAR(255), login_date DATETIME
);
CREATE TABLE trusted_application (
  id INT AUTO_INCREMENT PRIMARY KEY,
  oauth_client_id VARCHAR(255) REFERENCES oauth_client(id) ON DELETE CASCADE,
  trusted_oauth_client_id VARCHAR(255) REFERENCES oauth_client(id) ON DELETE CASCADE
);
CREATE TABLE pep_proxy (
  id VARCHAR(255) PRIMARY KEY, password VARCHAR(40), salt VARCHAR(255),
  oauth_client_id VARCHAR(255) REFERENCES oauth_client(id) ON DELETE CASCADE
);
CREATE TABLE iot (
  id VARCHAR(255) PRIMARY KEY, password VARCHAR(40), salt VARCHAR(255),
  oauth_client_id VARCHAR(255) REFERENCES oauth_client(id) ON DELETE CASCADE
);
INSERT INTO oauth_client (id, name, description, url, redirect_uri, image, grant_type, response_type)
  VALUES ('idm_admin_app', 'idm', 'idm', '', '', 'default', '', '');
INSERT INTO role (id, name, is_internal, oauth_client_id)
  VALUES ('provider', 'Provider', 1, 'idm_admin_app'), ('purchaser', 'Purchaser', 1, 'idm_admin_app');
INSERT INTO permission (id, name, is_internal, oauth_client_id) VALUES
  ('1', 'Get and assign all internal application roles', 1, 'idm_admin_app'),
  ('2', 'Manage the application', 1, 'idm_admin_app'),
  ('3', 'Manage roles', 1, 'idm_admin_app'),
  ('4', 'Manage authorizations', 1, 'idm_admin_app'),
  ('5', 'Get and assign all public application roles', 1, 'idm_admin_app'),
  ('6', 'Get and assign only public owned roles', 1, 'idm_admin_app');
INSERT INTO role_permission (role_id, permission_id) VALUES
  ('provider', '1'), ('provider', '2'), ('provider', '3'), ('provider', '4'), ('provider', '5'),
  ('provider', '6'), ('purchaser', '5');`;

/** What Keyrock's models (user.js, pep_proxy.js, iot.js) store: hex HMAC-SHA1 under the salt. */
export const keyrockPassword = (salt: string, password: string) =>
  createHmac('sha1', salt).update(password).digest('hex');
